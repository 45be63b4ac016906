/** Every error code Gatehouse returns; each one is documented in docs/errors.md. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'ORIGIN_NOT_ALLOWED',
  'NOT_FOUND',
  'CONFLICT',
  'GATE_ALREADY_DECIDED',
  'GATE_EXPIRED',
  'GATE_NOT_PENDING',
  'INVALID_OPTION',
  'BATCH_NOT_ALLOWED',
  'INVALID_TRANSITION',
  'DUPLICATE_APPROVER',
  'SELF_APPROVAL',
  'OWNER_APPROVAL',
  'REAUTHENTICATION_REQUIRED',
  'ROLE_TOO_LOW',
  'NOT_ASSIGNEE',
  'SIGNATURE_REQUIRED',
  'SIGNATURE_INVALID',
  'PAYLOAD_MISMATCH',
  'APPROVAL_USED',
  'TIMEOUT_ACTION_NOT_ALLOWED',
  'POLICY_INVALID',
  'POLICY_BUDGET_EXCEEDED',
  'RUN_STOPPED',
  'RUN_NOT_ACTIVE',
  'RUN_HELD',
  'PHASE_OUT_OF_ORDER',
  'ABOVE_CEILING',
  'UNKNOWN_GATE_TYPE',
  'IDEMPOTENCY_MISMATCH',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status for each code; route handlers never pick a status themselves. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  ORIGIN_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GATE_ALREADY_DECIDED: 409,
  GATE_EXPIRED: 409,
  GATE_NOT_PENDING: 409,
  INVALID_OPTION: 400,
  BATCH_NOT_ALLOWED: 422,
  INVALID_TRANSITION: 409,
  DUPLICATE_APPROVER: 409,
  SELF_APPROVAL: 403,
  OWNER_APPROVAL: 403,
  REAUTHENTICATION_REQUIRED: 403,
  ROLE_TOO_LOW: 403,
  NOT_ASSIGNEE: 403,
  SIGNATURE_REQUIRED: 400,
  SIGNATURE_INVALID: 400,
  PAYLOAD_MISMATCH: 409,
  APPROVAL_USED: 409,
  TIMEOUT_ACTION_NOT_ALLOWED: 400,
  POLICY_INVALID: 400,
  POLICY_BUDGET_EXCEEDED: 422,
  RUN_STOPPED: 409,
  RUN_NOT_ACTIVE: 409,
  RUN_HELD: 409,
  PHASE_OUT_OF_ORDER: 409,
  ABOVE_CEILING: 403,
  UNKNOWN_GATE_TYPE: 400,
  IDEMPOTENCY_MISMATCH: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

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
