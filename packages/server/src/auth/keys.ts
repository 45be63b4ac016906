import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { GatehouseError } from 'gatehouse-hitl-core';

// DER header of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function invalidKey(reason: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `publicKey: ${reason}`, {
    fields: [{ field: 'publicKey', message: reason }],
  });
}

/** Parses an Ed25519 public key given as PEM or as the raw 32 bytes in base64; throws VALIDATION_FAILED otherwise. */
export function parseEd25519PublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    if (trimmed.startsWith('-----BEGIN')) {
      key = createPublicKey(trimmed);
    } else {
      if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw invalidKey('not PEM and not base64');
      const raw = Buffer.from(
        trimmed,
        trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64',
      );
      if (raw.length !== 32) throw invalidKey(`a raw Ed25519 key is 32 bytes (got ${raw.length})`);
      key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    }
  } catch (error) {
    if (error instanceof GatehouseError) throw error;
    throw invalidKey('does not parse as a public key');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw invalidKey(`must be an Ed25519 key (got ${key.asymmetricKeyType ?? 'unknown'})`);
  }
  return key;
}

/** SHA-256 of the raw key bytes, hex: a stable name for a key that reveals nothing secret. */
export function keyFingerprint(key: KeyObject): string {
  const der = key.export({ format: 'der', type: 'spki' });
  return createHash('sha256').update(der.subarray(ED25519_SPKI_PREFIX.length)).digest('hex');
}
