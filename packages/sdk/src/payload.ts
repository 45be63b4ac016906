import type { ActionSpec } from './types.js';

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text; the same
 * rule as core's `canonicalJson`, kept here so agents do not load the policy engine.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    // A null prototype keeps a `__proto__` key as data, so hashes cover it too (as core does).
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(source).sort()) {
      const child = source[key];
      if (child !== undefined) sorted[key] = sortKeys(child);
    }
    return sorted;
  }
  return value;
}

/**
 * The text an approval binds to: the tool or operation and its arguments as the server receives
 * them (after a JSON round trip, so a `Date` hashes as its ISO string).
 */
export function payloadText(action: ActionSpec): string {
  const args = action.args === undefined ? {} : (JSON.parse(JSON.stringify(action.args)) as unknown);
  return canonicalJson({ tool: action.tool ?? null, operation: action.operation ?? null, args });
}

/** Lowercase hex SHA-256 of UTF-8 text, through WebCrypto. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * The hash a decision records for the action it approved.
 *
 * @example
 * const hash = await payloadHash({ tool: 'delete_file', args: { path: 'build/' } });
 */
export function payloadHash(action: ActionSpec): Promise<string> {
  return sha256Hex(payloadText(action));
}
