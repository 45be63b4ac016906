import { verify } from 'node:crypto';
import { canonicalJson, type Gate, GatehouseError } from '@gatehouse/core';
import type { SigningKeyRecord } from '@gatehouse/store';
import { parseEd25519PublicKey } from '../auth/keys.js';

/** What a signed decision binds: the gate, the option and the exact action. */
export function signedDecisionText(gateId: string, option: string, payloadHash: string | null): string {
  return canonicalJson({ gateId, option, payloadHash });
}

/** A signature that verified, and the registered key it verified with. */
export interface VerifiedSignature {
  signature: string;
  publicKey: string;
  keyId: string;
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

/**
 * Checks a decision's Ed25519 signature over `signedDecisionText` against the person's registered,
 * unrevoked keys; throws SIGNATURE_REQUIRED or SIGNATURE_INVALID.
 */
export function verifyDecisionSignature(options: {
  gate: Gate;
  option: string;
  signature: string | undefined;
  keys: readonly SigningKeyRecord[];
}): VerifiedSignature {
  const { gate, option, signature, keys } = options;
  const text = signedDecisionText(gate.id, option, gate.payloadHash);
  if (signature === undefined || signature.trim() === '') {
    throw new GatehouseError(
      'SIGNATURE_REQUIRED',
      `gate ${gate.id} needs a signed decision: sign ${text} with your registered Ed25519 key and send it as signature`,
      { field: 'signature', gateId: gate.id, signedText: text },
    );
  }
  const bytes = decodeSignature(signature.trim());
  const message = Buffer.from(text, 'utf8');
  const active = keys.filter((key) => key.revokedAt === null);
  const key =
    bytes === null ? undefined : active.find((candidate) => verifiesWith(candidate, message, bytes));
  if (key === undefined) {
    throw new GatehouseError(
      'SIGNATURE_INVALID',
      active.length === 0
        ? 'signature: you have no registered signing key; register one with POST /v1/me/keys'
        : `signature: does not verify with any of your registered keys over ${text}`,
      { field: 'signature', gateId: gate.id, signedText: text, keys: active.length },
    );
  }
  return { signature: signature.trim(), publicKey: key.publicKey, keyId: key.id };
}
