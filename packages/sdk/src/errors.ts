import type { ErrorCode } from 'gatehouse-hitl-core';
import type { GateResult } from './types.js';

/** A code from docs/errors.md, or one a newer server may send. */
export type ApiErrorCode = ErrorCode | (string & {});

/**
 * An error the Gatehouse server returned (or a refusal the SDK made on its behalf), rebuilt from
 * the wire shape `{ error: { code, message, details } }` with the same stable `code`.
 *
 * @example
 * try { await gate.completeRun(runId); }
 * catch (error) { if (isGatehouseApiError(error, 'RUN_STOPPED')) stopWorking(); }
 */
export class GatehouseApiError extends Error {
  readonly code: ApiErrorCode;
  /** The HTTP status, or 0 when no response arrived. */
  readonly status: number;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ApiErrorCode,
    message: string,
    options: { status?: number; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatehouseApiError';
    this.code = code;
    this.status = options.status ?? 0;
    this.details = options.details ?? {};
  }
}

/** True when `value` is a GatehouseApiError, optionally with the given code. */
export function isGatehouseApiError(value: unknown, code?: ApiErrorCode): value is GatehouseApiError {
  return value instanceof GatehouseApiError && (code === undefined || value.code === code);
}

/** Rebuilds an error response body as a GatehouseApiError; unknown shapes keep the status. */
export function errorFromResponse(status: number, body: unknown): GatehouseApiError {
  const wire = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (wire && typeof wire.code === 'string') {
    const message = typeof wire.message === 'string' ? wire.message : wire.code;
    const details =
      wire.details !== null && typeof wire.details === 'object'
        ? (wire.details as Record<string, unknown>)
        : {};
    return new GatehouseApiError(wire.code, message, { status, details });
  }
  const code = status === 503 ? 'SERVICE_UNAVAILABLE' : status >= 500 ? 'INTERNAL' : 'UNKNOWN';
  return new GatehouseApiError(code, `the server answered ${status} without an error body`, { status });
}

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
