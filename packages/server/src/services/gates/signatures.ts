import { verify } from 'node:crypto';
import {
  type Gate,
  GatehouseError,
  type SignedDecisionFields,
  signedDecisionText,
} from 'gatehouse-hitl-core';
import { type CanonicalJsonVersion, SIGNED_DECISION_VERSIONS } from 'gatehouse-hitl-protocol/rules';
import type { SigningKeyRecord } from 'gatehouse-hitl-store';
import { parseEd25519PublicKey } from '../../auth/keys.js';

/** A signature that verified, the registered key it verified with and the text it covers. */
export interface VerifiedSignature {
  signature: string;
  publicKey: string;
  keyId: string;
  /** The canonical JSON version of the text it verified over. */
  canonical: CanonicalJsonVersion;
}

function decodeSignature(signature: string): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(signature)) return null;
  const bytes = Buffer.from(signature, /[-_]/.test(signature) ? 'base64url' : 'base64');
  return bytes.length === 64 ? bytes : null;
}

function verifiesWith(key: SigningKeyRecord, message: Buffer, signature: Buffer): boolean {
  try {
    return verify(null, message, parseEd25519PublicKey(key.publicKey), signature);
  } catch {
    return false;
  }
}

/** The words sent with a decision, as the person typed them. */
export type DecisionWords = Pick<SignedDecisionFields, 'reason' | 'feedback' | 'instructions'>;

/** The signed text of a decision on `gate`: core's one builder, so every signer and verifier agree. */
export function decisionTextOf(
  gate: Gate,
  option: string,
  words: DecisionWords,
  payloadHash: string | null = gate.payloadHash,
  canonical: CanonicalJsonVersion = 1,
): string {
  return signedDecisionText({ gateId: gate.id, option, payloadHash, ...words }, canonical);
}

/** The key and text a signature verifies with, trying each accepted canonical JSON version. */
function verifiedBy(
  keys: readonly SigningKeyRecord[],
  texts: readonly { text: string; canonical: CanonicalJsonVersion }[],
  signature: Buffer,
): { key: SigningKeyRecord; canonical: CanonicalJsonVersion } | undefined {
  for (const { text, canonical } of texts) {
    const message = Buffer.from(text, 'utf8');
    const key = keys.find((candidate) => verifiesWith(candidate, message, signature));
    if (key !== undefined) return { key, canonical };
  }
  return undefined;
}

function acceptedTexts(
  gate: Gate,
  option: string,
  words: DecisionWords,
  payloadHash: string | null,
): { text: string; canonical: CanonicalJsonVersion }[] {
  const texts: { text: string; canonical: CanonicalJsonVersion }[] = [];
  for (const canonical of SIGNED_DECISION_VERSIONS) {
    try {
      texts.push({ text: decisionTextOf(gate, option, words, payloadHash, canonical), canonical });
    } catch {
      // Words RFC 8785 cannot write (a lone surrogate) leave only the versions that can.
    }
  }
  return texts;
}

/**
 * Checks a decision's Ed25519 signature over core's `signedDecisionText` (gate, option, payload
 * hash, reason, feedback, instructions), in canonical JSON v1 or v2, against the person's own
 * unrevoked keys; throws
 * SIGNATURE_REQUIRED or SIGNATURE_INVALID.
 */
export function verifyDecisionSignature(options: {
  gate: Gate;
  option: string;
  words?: DecisionWords;
  signature: string | undefined;
  /** The hash the decision approves: the edited action's when a person edited it. @default gate.payloadHash */
  payloadHash?: string | null | undefined;
  keys: readonly SigningKeyRecord[];
}): VerifiedSignature {
  const { gate, option, signature, keys } = options;
  const words = options.words ?? {};
  const payloadHash = options.payloadHash ?? gate.payloadHash;
  const text = decisionTextOf(gate, option, words, payloadHash);
  if (signature === undefined || signature.trim() === '') {
    throw new GatehouseError(
      'SIGNATURE_REQUIRED',
      `gate ${gate.id} needs a signed decision: sign details.signedText with your registered Ed25519 key and send it as signature`,
      { field: 'signature', gateId: gate.id, signedText: text },
    );
  }
  const bytes = decodeSignature(signature.trim());
  const active = keys.filter((key) => key.revokedAt === null);
  const verified =
    bytes === null ? undefined : verifiedBy(active, acceptedTexts(gate, option, words, payloadHash), bytes);
  if (verified === undefined) {
    throw new GatehouseError(
      'SIGNATURE_INVALID',
      active.length === 0
        ? 'signature: you have no registered signing key; register one with POST /v1/me/keys'
        : 'signature: does not verify with any of your registered keys over details.signedText',
      { field: 'signature', gateId: gate.id, signedText: text, keys: active.length },
    );
  }
  return {
    signature: signature.trim(),
    publicKey: verified.key.publicKey,
    keyId: verified.key.id,
    canonical: verified.canonical,
  };
}
