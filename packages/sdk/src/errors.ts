import type { GateResult } from './types.js';

export type { ApiErrorCode } from 'gatehouse-hitl-protocol/rules';
export { GatehouseApiError, isGatehouseApiError } from 'gatehouse-hitl-protocol/rules';

/**
 * Thrown by a `withApproval` wrapper when the action was not approved; `result` holds the whole
 * answer (reason, instructions, feedback, gate id).
 */
export class ApprovalNotGranted extends Error {
  readonly result: GateResult;

  constructor(result: GateResult, message?: string) {
    super(message ?? `not approved: ${result.outcome}${result.reason ? ` (${result.reason})` : ''}`);
    this.name = 'ApprovalNotGranted';
    this.result = result;
  }

  get outcome(): string {
    return this.result.outcome;
  }
}

/** The action was denied, by the policy or by a person; `reason` says why. */
export class ApprovalDenied extends ApprovalNotGranted {
  constructor(result: GateResult) {
    super(result, `denied${result.reason ? `: ${result.reason}` : ''}`);
    this.name = 'ApprovalDenied';
  }

  get reason(): string | null {
    return this.result.reason;
  }
}

/** A person steered instead of approving; `instructions` is the agent's next instruction. */
export class ApprovalSteered extends ApprovalNotGranted {
  constructor(result: GateResult) {
    super(result, 'steered: follow the instructions instead');
    this.name = 'ApprovalSteered';
  }

  get instructions(): string {
    return this.result.instructions ?? '';
  }
}

/** Nobody answered before the gate's deadline and its timeout action did not let it proceed. */
export class ApprovalTimedOut extends ApprovalNotGranted {
  constructor(result: GateResult) {
    super(result, 'timed out waiting for a decision');
    this.name = 'ApprovalTimedOut';
  }
}

/** The error a wrapper throws for a result that is not `approved`. */
export function approvalErrorFor(result: GateResult): ApprovalNotGranted {
  switch (result.outcome) {
    case 'denied':
      return new ApprovalDenied(result);
    case 'steered':
      return new ApprovalSteered(result);
    case 'timed_out':
      return new ApprovalTimedOut(result);
    default:
      return new ApprovalNotGranted(result);
  }
}
