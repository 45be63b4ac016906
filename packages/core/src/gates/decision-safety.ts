import { suggestStandingScopes } from '../destructive/command-scope.js';
import { ALWAYS_GATED_LABELS, classifyAlwaysGated } from '../destructive/destructive.js';
import { builtinTypesWhere } from '../gate-types/index.js';
import type { Gate } from '../schemas.js';

/** Why a gate is left out of a batch, as a stable word a client can show or count. */
export type BatchExclusionRule =
  | 'gate_type'
  | 'risk'
  | 'threshold'
  | 'approvals'
  | 'signature'
  | 'always_gated'
  | 'destructive';

/** Whether one click for many gates may end this gate, and if not, why. */
export type BatchEligibility =
  | { eligible: true }
  | { eligible: false; rule: BatchExclusionRule; reason: string };

/** What the batch rule reads of a gate. */
export type BatchGate = Pick<
  Gate,
  'type' | 'risk' | 'threshold' | 'requiredApprovals' | 'signatureRequired' | 'action' | 'context'
>;

/** Gate types that are always decided one at a time, whatever their settings. */
export const BATCH_EXCLUDED_TYPES: ReadonlySet<string> = builtinTypesWhere((spec) => !spec.batchable);

const refuse = (rule: BatchExclusionRule, reason: string): BatchEligibility => ({
  eligible: false,
  rule,
  reason,
});

function settingsRefusal(gate: BatchGate, batchable: boolean): BatchEligibility | null {
  if (!batchable) return refuse('gate_type', `${gate.type} gates are decided one at a time`);
  if (gate.risk !== 'low' && gate.risk !== 'medium') return refuse('risk', `the risk is ${gate.risk}`);
  if (gate.threshold === 'mandatory') return refuse('threshold', 'the gate is mandatory');
  if (gate.requiredApprovals !== 1)
    return refuse('approvals', `it needs ${gate.requiredApprovals} approvals`);
  if (gate.signatureRequired) return refuse('signature', 'it needs a signed decision');
  return null;
}

/**
 * Whether a batch (one click for many gates) may end `gate`: only low or medium risk, not mandatory,
 * one approval, no signature, and neither always-gated nor destructive; `batchable` is the type's
 * (a custom type's comes from its catalog).
 * @example batchEligibility(gate) // { eligible: false, rule: 'risk', reason: 'the risk is high' }
 */
export function batchEligibility(
  gate: BatchGate,
  batchable: boolean = !BATCH_EXCLUDED_TYPES.has(gate.type),
): BatchEligibility {
  const refused = settingsRefusal(gate, batchable);
  if (refused !== null) return refused;
  const categories = gate.action === null ? [] : classifyAlwaysGated(gate.action);
  if (categories.length > 0) {
    const labels = categories.map((category) => ALWAYS_GATED_LABELS[category]).join(', ');
    return refuse('always_gated', `the action is always gated (${labels})`);
  }
  // The agent can only make this stricter: a gate it calls destructive is never batched.
  if (gate.context?.destructive === true) return refuse('destructive', 'the action is destructive');
  return { eligible: true };
}

/** What the "approve always" rule reads of a gate. */
export type AlwaysGate = Pick<Gate, 'action' | 'options'>;

/** Why an approve-always decision on `gate` would be refused, or null when it would be taken. */
export function alwaysRefusal(gate: Pick<Gate, 'action'>): string | null {
  const action = gate.action;
  if (action === null || typeof action !== 'object' || action.tool === undefined)
    return 'the gate is not about a tool call';
  const categories = classifyAlwaysGated(action);
  if (categories.length > 0) {
    const labels = categories.map((category) => ALWAYS_GATED_LABELS[category]).join(', ');
    return `the action is always gated (${labels})`;
  }
  const scopes = suggestStandingScopes(action);
  if (scopes.refusal !== null) return scopes.refusal;
  return scopes.options.length === 0 ? 'no standing scope fits this call; approve it once' : null;
}

/** True when the gate offers "approve always" and the server would take it. */
export function canOfferAlways(gate: AlwaysGate): boolean {
  const options = Array.isArray(gate.options) ? gate.options : [];
  return options.some((option) => option.id === 'approve_always') && alwaysRefusal(gate) === null;
}
