import { verify } from 'node:crypto';
import {
  decisionWhitelistScope,
  type Gate,
  GatehouseError,
  type SignedDecisionFields,
  type SignedWhitelistScope,
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

/** The words sent with a decision, as the person typed them, and a Whitelist decision's scope. */
export type DecisionWords = Pick<SignedDecisionFields, 'reason' | 'feedback' | 'instructions' | 'whitelist'>;

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
 * For a signature that does not verify over the whitelist scope sent: SIGNATURE_INVALID naming
 * `whitelist` when it verifies over the same decision with no scope or the narrowest one, so the
 * scope is what differs; null when it does not.
 */
function scopeMismatch(
  request: { gate: Gate; option: string; words: DecisionWords; payloadHash: string | null },
  verifies: (texts: readonly { text: string; canonical: CanonicalJsonVersion }[]) => boolean,
): GatehouseError | null {
  const { gate, option, words, payloadHash } = request;
  const sent = words.whitelist;
  if (sent === undefined) return null;
  const others = [
    { scope: undefined, what: 'no scope' },
    { scope: decisionWhitelistScope(gate, option, undefined), what: 'the narrowest scope' },
  ].filter(({ scope }) => JSON.stringify(scope) !== JSON.stringify(sent));
  const signed = others.find(({ scope }) =>
    verifies(acceptedTexts(gate, option, { ...words, whitelist: scope }, payloadHash)),
  );
  if (signed === undefined) return null;
  return new GatehouseError(
    'SIGNATURE_INVALID',
    `whitelist: the signature covers ${signed.what}, not the scope sent (${scopeWords(sent)}); sign details.signedText, which holds the scope, and send the scope you signed`,
    { field: 'whitelist', gateId: gate.id, signedText: decisionTextOf(gate, option, words, payloadHash) },
  );
}

function scopeWords(scope: SignedWhitelistScope): string {
  const files = scope.path ?? "the finding's file";
  return `path ${files}, agents ${scope.agents}, ${scope.expiresInDays} days`;
}

/**
 * Checks a decision's Ed25519 signature over core's `signedDecisionText` (gate, option, payload
 * hash, reason, feedback, instructions, and a Whitelist decision's scope), in canonical JSON v1 or
 * v2, against the person's own unrevoked keys; throws SIGNATURE_REQUIRED or SIGNATURE_INVALID
 * (naming `whitelist` when only the scope differs from the one signed).
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
  const verifies = (texts: readonly { text: string; canonical: CanonicalJsonVersion }[]) =>
    bytes === null ? undefined : verifiedBy(active, texts, bytes);
  const verified = verifies(acceptedTexts(gate, option, words, payloadHash));
  if (verified === undefined) {
    const request = { gate, option, words, payloadHash };
    throw (
      scopeMismatch(request, (texts) => verifies(texts) !== undefined) ??
      new GatehouseError(
        'SIGNATURE_INVALID',
        active.length === 0
          ? 'signature: you have no registered signing key; register one with POST /v1/me/keys'
          : `signature: does not verify with any of your registered keys over details.signedText${words.whitelist === undefined ? '' : `, which holds the whitelist scope sent (${scopeWords(words.whitelist)})`}`,
        { field: 'signature', gateId: gate.id, signedText: text, keys: active.length },
      )
    );
  }
  return {
    signature: signature.trim(),
    publicKey: verified.key.publicKey,
    keyId: verified.key.id,
    canonical: verified.canonical,
  };
}
