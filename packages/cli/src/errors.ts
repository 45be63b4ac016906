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

/** The codes of errors the command line itself reports, beside the server's; `--json` prints them. */
export type CliErrorCode = 'NOT_SIGNED_IN' | 'SERVER_UNREACHABLE' | 'CLI_ERROR';

/** Something outside the API went wrong (no credentials, unreadable file, server unreachable): exit code 1. */
export class CliError extends Error {
  override name = 'CliError';
  readonly code: CliErrorCode;

  /** @param code @default 'CLI_ERROR' */
  constructor(message: string, code: CliErrorCode = 'CLI_ERROR') {
    super(message);
    this.code = code;
  }
}

/** An error answer from the server: the protocol's wire error, decoded by every Gatehouse client alike. */
export { GatehouseApiError as ApiError, isGatehouseApiError as isApiError } from 'gatehouse-hitl-protocol';
