import type { GateDocument as Gate, GateRequestResponse, InterventionNotice } from 'gatehouse-hitl-protocol';
import { gateOutcome } from 'gatehouse-hitl-protocol/rules';
import { GatehouseApiError } from './errors.js';
import { payloadHash } from './payload.js';
import type { ActionSpec, GateResult, Outcome } from './types.js';

/** The option that remembers an approval as a rule; such approvals are not used up. */
const APPROVE_ALWAYS = 'approve_always';

/** The SDK outcome of an ended gate, or null while it is pending. */
export function outcomeOfGate(gate: Gate): Outcome | null {
  return gateOutcome(gate.status, gate.decision?.option);
}

/** The answer when the policy decided at once: allowed → approved, denied → denied. */
export function resultFromPolicy(
  response: GateRequestResponse,
  hash: string,
  args: Record<string, unknown>,
): GateResult {
  return {
    outcome: response.outcome === 'allowed' ? 'approved' : 'denied',
    option: null,
    reason: response.reason ?? null,
    instructions: null,
    feedback: null,
    affectedArtifacts: [],
    gateId: response.gate?.id ?? response.gateId ?? null,
    ruleId: response.ruleId ?? null,
    decidedBy: 'policy',
    payloadHash: hash,
    oneOff: false,
    args,
    edited: false,
    answer: null,
    delegateTo: null,
    newLimit: null,
    interventions: response.interventions ?? [],
    gate: response.gate ?? null,
  };
}

/** The answer carried by an ended gate. */
export function resultFromGate(
  gate: Gate,
  extra: { outcome?: Outcome | null; ruleId?: string | null; interventions?: InterventionNotice[] } = {},
): GateResult {
  const decision = gate.decision;
  const outcome = extra.outcome ?? outcomeOfGate(gate) ?? 'pending';
  return {
    outcome,
    option: decision?.option ?? null,
    reason: decision?.reason ?? null,
    instructions: decision?.instructions ?? null,
    feedback: decision?.feedback ?? null,
    affectedArtifacts: decision?.affectedArtifacts ?? [],
    gateId: gate.id,
    ruleId: extra.ruleId ?? gate.policyRuleId ?? null,
    decidedBy: decision?.decidedBy ?? null,
    payloadHash: decision?.payloadHash ?? gate.payloadHash ?? null,
    oneOff: outcome === 'approved' && gate.action !== null && decision?.option !== APPROVE_ALWAYS,
    args: decision?.editedArgs ?? gate.action?.args ?? null,
    edited: decision?.editedArgs !== undefined,
    answer: decision?.answer ?? null,
    delegateTo: decision?.delegateTo ?? null,
    newLimit: decision?.newLimit ?? null,
    interventions: extra.interventions ?? [],
    gate,
  };
}

/** The PAYLOAD_MISMATCH refusal: the server's hash of the action is not the SDK's. */
export function payloadMismatch(gateId: string | null, approved: string, actual: string): GatehouseApiError {
  return new GatehouseApiError(
    'PAYLOAD_MISMATCH',
    `the approval of gate ${gateId ?? '(none)'} covers a different action than the one being run`,
    { status: 409, details: { gateId, approved, actual } },
  );
}

/** Refuses an approval that covers a different action than `expectedHash` (fails closed). */
export function assertPayloadMatches(result: GateResult, expectedHash: string): void {
  if (result.outcome !== 'approved' || result.payloadHash === null || result.payloadHash === expectedHash)
    return;
  throw payloadMismatch(result.gateId, result.payloadHash, expectedHash);
}

/**
 * Checks that an approval covers the action that was asked for: the same hash, or, when a person
 * edited it, the asked-for action as the original and the edited arguments as what was approved.
 */
export async function assertApprovalCovers(
  result: GateResult,
  action: ActionSpec,
  requestedHash: string,
): Promise<void> {
  if (!result.edited) return assertPayloadMatches(result, requestedHash);
  const original = result.gate?.decision?.originalPayloadHash ?? null;
  if (original !== requestedHash) throw payloadMismatch(result.gateId, original ?? '(none)', requestedHash);
  const edited = await payloadHash({ ...action, args: result.args ?? {} });
  if (result.payloadHash !== edited)
    throw payloadMismatch(result.gateId, result.payloadHash ?? '(none)', edited);
}
