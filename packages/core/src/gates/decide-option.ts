import { GatehouseError } from '../errors.js';
import { builtinGateSpec, type OptionEquivalents } from '../gate-types/index.js';
import { invalidField } from '../invalid-field.js';
import type { Gate, GateOption } from '../schemas.js';

/**
 * How a plain answer reached the option it ended up as (seed 000's compatibility rules):
 * `direct` — the gate offers the option itself;
 * `reject` — plain reject on a gate whose rejecting option has another name;
 * `steer_as_option` — the gate's own steering option (e.g. destructive_action's suggest);
 * `steer_as_feedback` — a phase review's request-changes, the instructions as feedback;
 * `steer_as_approval` — approve with the instructions as feedback, on a gate that cannot be steered.
 */
export type OptionMapping =
  | 'direct'
  | 'reject'
  | 'steer_as_option'
  | 'steer_as_feedback'
  | 'steer_as_approval';

export interface ResolvedOption {
  option: GateOption;
  mapping: OptionMapping;
}

// A type's own names for reject, steer and approve; custom types have none.
function equivalentOf(gate: Gate, answer: keyof OptionEquivalents): string | undefined {
  return builtinGateSpec(gate.type)?.equivalents[answer];
}

function optionById(gate: Gate, id: string | undefined): GateOption | undefined {
  return id === undefined ? undefined : gate.options.find((option) => option.id === id && option.ends);
}

/** The option a plain `reject` stands for on this gate, if any. */
export function rejectOptionOf(gate: Gate): GateOption | undefined {
  return (
    gate.options.find((option) => option.ends && option.outcome === 'rejected') ??
    optionById(gate, equivalentOf(gate, 'reject'))
  );
}

/** What a plain `steer` becomes on this gate, or undefined where it can be nothing. */
export function steerOptionOf(gate: Gate): ResolvedOption | undefined {
  if (gate.steerable) {
    const own = gate.options.find((option) => option.ends && option.outcome === 'steered');
    if (own !== undefined) return { option: own, mapping: own.id === 'steer' ? 'direct' : 'steer_as_option' };
  }
  const redirect = optionById(gate, equivalentOf(gate, 'steer'));
  if (redirect !== undefined) return { option: redirect, mapping: 'steer_as_feedback' };
  const approving =
    optionById(gate, 'approve') ??
    optionById(gate, equivalentOf(gate, 'approve')) ??
    gate.options.find((option) => option.ends && option.outcome === 'approved');
  return approving === undefined ? undefined : { option: approving, mapping: 'steer_as_approval' };
}

function invalidOption(gate: Gate, id: string): GatehouseError {
  const valid = gate.options.map((candidate) => candidate.id);
  return new GatehouseError(
    'INVALID_OPTION',
    `option "${id}" is not one of this ${gate.type} gate's options: ${valid.join(', ')}`,
    { field: 'option', option: id, options: valid },
  );
}

/**
 * The option an answer chooses. Plain reject and steer are accepted on every gate that has a
 * way to say them; a steer that would approve needs `confirmApproval`, so nobody approves by surprise.
 */
export function resolveDecideOption(gate: Gate, id: string, confirmApproval: boolean): ResolvedOption {
  if (id === 'steer') {
    const steer = steerOptionOf(gate);
    if (steer === undefined) throw invalidOption(gate, id);
    if (steer.mapping === 'steer_as_approval' && !confirmApproval) {
      throw invalidField(
        'confirmApproval',
        `a ${gate.type} gate cannot be steered: a steer is recorded as "${steer.option.id}" with your instructions as feedback; send confirmApproval: true to do that, or choose another option`,
      );
    }
    return steer;
  }
  const option = gate.options.find((candidate) => candidate.id === id);
  if (option !== undefined) return { option, mapping: 'direct' };
  if (id === 'reject') {
    const reject = rejectOptionOf(gate);
    if (reject !== undefined) return { option: reject, mapping: 'reject' };
  }
  throw invalidOption(gate, id);
}
