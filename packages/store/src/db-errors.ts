import { GatehouseError, isGatehouseError } from 'gatehouse-hitl-core';

/** True for a unique or primary-key violation from either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A duplicate insert becomes CONFLICT; anything else is left as it is. */
export function translateUnitError(error: unknown): unknown {
  if (isUniqueViolation(error)) {
    const detail = (error as { detail?: unknown; message?: unknown }).detail ?? (error as Error).message;
    return new GatehouseError('CONFLICT', `already exists: ${String(detail)}`, {}, error);
  }
  return error;
}

/** The database could not be reached or the transaction itself failed: fail closed. */
export function unavailable(error: unknown, what = 'database'): GatehouseError {
  if (isGatehouseError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new GatehouseError('SERVICE_UNAVAILABLE', `${what} unavailable: ${reason}`, {}, error);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
]);

/** True when the database itself could not be reached (as opposed to a query that failed). */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)
  );
}

/** Reads fail closed with SERVICE_UNAVAILABLE when the database is gone; other errors pass through. */
export function translateReadError(error: unknown): unknown {
  return isConnectionError(error) ? unavailable(error) : error;
}
