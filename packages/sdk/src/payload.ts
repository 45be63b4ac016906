import { canonicalJson, payloadText as protocolPayloadText } from 'gatehouse-hitl-protocol/rules';
import type { ActionSpec } from './types.js';

export { canonicalJson };

/**
 * The text an approval binds to: the tool or operation and its arguments as the server receives
 * them (after a JSON round trip, so a `Date` hashes as its ISO string).
 */
export function payloadText(action: ActionSpec): string {
  const args = action.args === undefined ? {} : (JSON.parse(JSON.stringify(action.args)) as unknown);
  return protocolPayloadText({ tool: action.tool, operation: action.operation, args });
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
