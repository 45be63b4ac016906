import type { BriefingInput, BriefingParts } from '../briefing/briefing.js';
import { buildGenericParts } from '../briefing/briefing-builders.js';
import type { PolicyEvent } from '../policy/policy-schema.js';
import type { GateOption, GateTypeDefinition, OptionOutcome } from '../schemas.js';

/** Builds the type's part of a gate's Summary of Action. */
export type BriefingBuilder = (input: BriefingInput) => BriefingParts;

/**
 * Who opens a gate of a type: the agent asking (its request gated by the policy), the server's
 * trigger rules from the facts the agent reports, or the server itself (a low confidence report,
 * a phase boundary, a finished run).
 */
export type GateOpener = 'agent' | 'trigger_rules' | 'server';

/** The option ids a plain reject, steer or approve stands for where the type has no option of that outcome. */
export interface OptionEquivalents {
  /** The option a plain `reject` becomes when no option has the outcome "rejected". */
  reject?: string;
  /** The option a plain `steer` becomes, the instructions as feedback, when the type cannot be steered. */
  steer?: string;
  /** The option a steer-as-approval becomes when the type has no `approve`. */
  approve?: string;
}

/** How a gate type behaves beyond its catalog entry; custom types get `DEFAULT_GATE_BEHAVIOUR`. */
export interface GateTypeBehaviour {
  equivalents: Readonly<OptionEquivalents>;
  briefing: BriefingBuilder;
  /** One click for many gates may end it (its own settings still decide, see `batchEligibility`). */
  batchable: boolean;
  /** Blocks or escalates on timeout, never proceeds. */
  neverProceeds: boolean;
  /** The agent that asked may withdraw it while it is pending. */
  withdrawable: boolean;
  openedBy: GateOpener;
  /** The request event whose gating rule opens this type when the rule names none. */
  policyEvent?: PolicyEvent;
}

/** Everything one gate type is: its catalog entry (options, defaults, retention) and its behaviour. */
export interface GateTypeSpec extends GateTypeBehaviour {
  definition: GateTypeDefinition;
}

/** What a custom gate type registered at runtime behaves like unless it says otherwise. */
export const DEFAULT_GATE_BEHAVIOUR: Readonly<GateTypeBehaviour> = Object.freeze({
  equivalents: Object.freeze({}),
  briefing: buildGenericParts,
  batchable: true,
  neverProceeds: false,
  withdrawable: false,
  openedBy: 'agent',
});

function freezeDefinition(definition: GateTypeDefinition): GateTypeDefinition {
  for (const option of definition.options) {
    Object.freeze(option.requires);
    Object.freeze(option);
  }
  Object.freeze(definition.options);
  return Object.freeze(definition);
}

/**
 * A frozen gate type spec; behaviour it leaves out is the default's.
 * @example export const question = defineGateType({ definition, batchable: true, withdrawable: true });
 */
export function defineGateType(
  spec: { definition: GateTypeDefinition } & Partial<GateTypeBehaviour>,
): GateTypeSpec {
  return Object.freeze({
    ...DEFAULT_GATE_BEHAVIOUR,
    ...spec,
    equivalents: Object.freeze({ ...(spec.equivalents ?? {}) }),
    definition: freezeDefinition(spec.definition),
  });
}

type Requirement = GateOption['requires'][number];

/** An option that answers the gate. */
export function ending(
  id: string,
  label: string,
  key: string,
  description: string,
  outcome: OptionOutcome,
  requires: Requirement[] = [],
): GateOption {
  return { id, label, key, description, ends: true, outcome, requires };
}

/** An option that only shows more context (view, diff, history). */
export function showing(id: string, label: string, key: string, description: string): GateOption {
  return { id, label, key, description, ends: false, requires: [] };
}

export const approve = (key: string, description = 'Go ahead as proposed'): GateOption =>
  ending('approve', 'Approve', key, description, 'approved');
export const reject = (key: string, description = 'Do not go ahead; the agent is told why'): GateOption =>
  ending('reject', 'Reject', key, description, 'rejected');
export const steer = (key: string, description = 'Go ahead with corrected instructions'): GateOption =>
  ending('steer', 'Steer', key, description, 'steered', ['instructions']);
export const rejectRollback = (key: string, description: string): GateOption =>
  ending('reject_rollback', 'Reject & rollback', key, description, 'rejected');
export const abort = (key: string): GateOption =>
  ending('abort', 'Abort', key, 'Stop the task entirely and clean up', 'resolved');
