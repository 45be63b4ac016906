/** The command line was wrong (unknown command or option, missing argument): exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  /** The command whose help explains the fix, e.g. `gates decide`. */
  readonly command: string | null;

  constructor(message: string, command: string | null = null) {
    super(message);
    this.command = command;
  }
}

/** Something outside the API went wrong (no credentials, unreadable file, server unreachable): exit code 1. */
export class CliError extends Error {
  override name = 'CliError';
}

/** An error answer from the server, rebuilt from the wire shape `{ error: { code, message, details } }`. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, status: number, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/** True when `error` is the server's answer with this code. */
export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
