import {
  type DecideBody,
  decisionWhitelistScope,
  keyProofText,
  signedDecisionText,
} from 'gatehouse-hitl-protocol';
import { signText } from './browser-key.js';
import type { StoredSigningKey } from './key-store.js';

/** What a signed decision covers besides the gate: the option, the words sent with it, a Whitelist's scope. */
export interface SignedWords {
  option: string;
  reason?: string | undefined;
  feedback?: string | undefined;
  instructions?: string | undefined;
  whitelist?: DecideBody['whitelist'];
}

/**
 * Signs a decision on a gate with this browser's key over the protocol's `signedDecisionText` (gate,
 * option, payload hash, reason, feedback, instructions, a Whitelist decision's scope); the result
 * goes in the decide body as `signature`, and the body must carry exactly these words and scope.
 */
export function signDecision(
  key: StoredSigningKey,
  gate: { id: string; payloadHash: string | null; type: string; context: Record<string, unknown> },
  words: SignedWords,
): Promise<string> {
  return signText(
    key,
    signedDecisionText({
      gateId: gate.id,
      option: words.option,
      payloadHash: gate.payloadHash,
      reason: words.reason,
      feedback: words.feedback,
      instructions: words.instructions,
      whitelist: decisionWhitelistScope(gate, words.option, words.whitelist),
    }),
  );
}

/** Proves this browser holds the key it registers: the server's one-time challenge, signed for `userId`. */
export function signKeyProof(key: StoredSigningKey, challenge: string, userId: string): Promise<string> {
  return signText(key, keyProofText({ challenge, userId }));
}
