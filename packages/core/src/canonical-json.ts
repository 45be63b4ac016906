import { GatehouseError } from './errors.js';

/**
 * Deepest nesting of arrays and objects canonicalJson accepts; well above the server's request
 * depth limit, low enough that the recursion can never overflow the stack.
 */
export const CANONICAL_JSON_MAX_DEPTH = 256;

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text
 * (the input to payload and audit hashes). Throws VALIDATION_FAILED past CANONICAL_JSON_MAX_DEPTH.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, 0));
}

function sortKeys(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= CANONICAL_JSON_MAX_DEPTH) {
    throw new GatehouseError(
      'VALIDATION_FAILED',
      `value nested deeper than ${CANONICAL_JSON_MAX_DEPTH} levels; flatten it`,
      { limit: CANONICAL_JSON_MAX_DEPTH },
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

/** The text an approval binds to: the tool or operation and its exact arguments. */
export function payloadText(action: {
  tool?: string | undefined;
  operation?: string | undefined;
  args?: unknown;
}): string {
  return canonicalJson({
    tool: action.tool ?? null,
    operation: action.operation ?? null,
    args: action.args ?? {},
  });
}
