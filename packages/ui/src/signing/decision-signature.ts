import { signText } from './browser-key.js';
import type { StoredSigningKey } from './key-store.js';

/**
 * The exact text the server verifies a signed decision against: canonical JSON (keys sorted) of
 * `{ gateId, option, payloadHash }`, with a missing payload hash as null.
 */
export function signedDecisionText(gateId: string, option: string, payloadHash: string | null): string {
  // Keys written in sorted order; JSON.stringify keeps insertion order.
  return JSON.stringify({ gateId, option, payloadHash });
}

/** Signs a decision on a gate with this browser's key; the result goes in the decide body as `signature`. */
export function signDecision(
  key: StoredSigningKey,
  gate: { id: string; payloadHash: string | null },
  option: string,
): Promise<string> {
  return signText(key, signedDecisionText(gate.id, option, gate.payloadHash));
}
