import { readStoredKey, type StoredSigningKey, writeStoredKey } from './key-store.js';

const ED25519 = { name: 'Ed25519' } as const;

function toBase64(bytes: ArrayBuffer): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text);
}

function toHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Why this browser cannot sign decisions, or null when it can. */
export function signingUnavailableReason(): string | null {
  if (typeof window === 'undefined' || !window.isSecureContext) {
    return 'signing needs a secure page (https, or http on 127.0.0.1 / localhost)';
  }
  if (!globalThis.crypto?.subtle) return 'this browser has no Web Crypto';
  if (typeof indexedDB === 'undefined') return 'this browser has no IndexedDB to keep a signing key in';
  return null;
}

/**
 * Makes a new Ed25519 key pair whose private key cannot be exported, and keeps it in this
 * browser for `userId`, replacing any earlier one.
 */
export async function createSigningKey(userId: string): Promise<StoredSigningKey> {
  let pair: CryptoKeyPair;
  try {
    pair = (await crypto.subtle.generateKey(ED25519, false, ['sign', 'verify'])) as CryptoKeyPair;
  } catch (error) {
    throw new Error(`this browser cannot make Ed25519 keys (${(error as Error).message})`);
  }
  const raw = await crypto.subtle.exportKey('raw', pair.publicKey);
  const key: StoredSigningKey = {
    userId,
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    publicKeyBase64: toBase64(raw),
    fingerprint: toHex(await crypto.subtle.digest('SHA-256', raw)),
    createdAt: Date.now(),
  };
  await writeStoredKey(key);
  return key;
}

/** The key this browser keeps for `userId`, or null. */
export function loadSigningKey(userId: string): Promise<StoredSigningKey | null> {
  return readStoredKey(userId);
}

/** The Ed25519 signature of `text` (UTF-8), base64. */
export async function signText(key: StoredSigningKey, text: string): Promise<string> {
  const signature = await crypto.subtle.sign(ED25519, key.privateKey, new TextEncoder().encode(text));
  return toBase64(signature);
}

/** `ab12 cd34 …`: a fingerprint in groups of four, easier to compare by eye. */
export function formatFingerprint(fingerprint: string): string {
  return fingerprint.match(/.{1,4}/g)?.join(' ') ?? fingerprint;
}
