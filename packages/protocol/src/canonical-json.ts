import { GatehouseApiError } from './wire-error.js';

/**
 * Deepest nesting of arrays and objects canonicalJson accepts; well above the server's request
 * depth limit, low enough that the recursion can never overflow the stack.
 */
export const CANONICAL_JSON_MAX_DEPTH = 256;

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text (the input
 * to payload hashes, audit hashes and signed decisions). Past CANONICAL_JSON_MAX_DEPTH it throws a
 * GatehouseApiError with code VALIDATION_FAILED and status 400.
 * @example canonicalJson({ b: 1, a: [2] }) // '{"a":[2],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, 0));
}

function sortKeys(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= CANONICAL_JSON_MAX_DEPTH) {
    throw new GatehouseApiError(
      'VALIDATION_FAILED',
      `value nested deeper than ${CANONICAL_JSON_MAX_DEPTH} levels; flatten it`,
      { status: 400, details: { limit: CANONICAL_JSON_MAX_DEPTH } },
    );
  }
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, depth + 1));
  const source = value as Record<string, unknown>;
  // A null prototype keeps a `__proto__` key as data, so hashes cover it too.
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(source).sort()) {
    const child = source[key];
    if (child !== undefined) sorted[key] = sortKeys(child, depth + 1);
  }
  return sorted;
}

/** The action an approval binds to, as a client or the server holds it. */
export interface PayloadAction {
  tool?: string | null | undefined;
  operation?: string | null | undefined;
  args?: unknown;
}

/**
 * The text an approval binds to: the tool or operation and its exact arguments.
 * @example payloadText({ tool: 'rm' }) // '{"args":{},"operation":null,"tool":"rm"}'
 */
export function payloadText(action: PayloadAction): string {
  return canonicalJson({
    tool: action.tool ?? null,
    operation: action.operation ?? null,
    args: action.args ?? {},
  });
}
