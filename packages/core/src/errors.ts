import { type ErrorCode, HTTP_STATUS } from 'gatehouse-hitl-protocol';

export type { ErrorCode } from 'gatehouse-hitl-protocol';
export { ERROR_CODES, HTTP_STATUS } from 'gatehouse-hitl-protocol';

/** The one error type of Gatehouse: a stable code, a message that names the field and the fix, details. */
export class GatehouseError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'GatehouseError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }

  /** The wire shape: `{ error: { code, message, details } }`. */
  toJSON(): { error: { code: ErrorCode; message: string; details: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, details: { ...this.details } } };
  }
}

export function isGatehouseError(value: unknown): value is GatehouseError {
  return value instanceof GatehouseError;
}

/** Exhaustiveness check for switches over discriminated unions. */
export function assertNever(value: never): never {
  throw new GatehouseError('INTERNAL', `unexpected value ${JSON.stringify(value)}`);
}
