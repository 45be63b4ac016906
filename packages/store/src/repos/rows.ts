import { GatehouseError } from 'gatehouse-hitl-core';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** Postgres hands int8 back as text unless told otherwise: every integer column goes through here. */
export function int(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/**
 * Oldest first, then by id: the order of `order by created_at, id`, for the few rows a hot query
 * reads without an ORDER BY of its own (inside a commit SQLite spent more on the clause than on them).
 */
export function byCreation(
  a: { id: string; created_at: unknown },
  b: { id: string; created_at: unknown },
): number {
  const at = int(a.created_at) - int(b.created_at);
  if (at !== 0) return at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function intOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : int(value);
}

/** Row counts come back as bigint from Kysely. */
export function changed(count: bigint | undefined): number {
  return Number(count ?? 0n);
}

export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A page size within 1..1000, 100 when not given. */
export function pageLimit(limit: number | undefined, fallback = DEFAULT_LIMIT): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1) {
    throw invalidField('limit', `must be a whole number from 1 to ${MAX_LIMIT} (got ${limit})`);
  }
  return Math.min(limit, MAX_LIMIT);
}

/** An opaque cursor from the sort key of the last item of a page. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key inside a cursor, checked against the expected element types. */
export function decodeCursor<K extends readonly ('string' | 'number')[]>(
  cursor: string,
  shape: K,
): { [I in keyof K]: K[I] extends 'string' ? string : number } {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  const valid =
    Array.isArray(key) && key.length === shape.length && key.every((part, i) => typeof part === shape[i]);
  if (!valid) throw invalidField('cursor', 'is not a cursor from a previous page; start again without one');
  return key as { [I in keyof K]: K[I] extends 'string' ? string : number };
}

/** The page and the cursor that continues after it. */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
  keyOf: (row: R) => (string | number)[],
): { items: T[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map(map), nextCursor: more && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

export function invalidField(field: string, message: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `${field} ${message}`, {
    field,
    fields: [{ field, message }],
  });
}
