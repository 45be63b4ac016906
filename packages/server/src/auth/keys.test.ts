import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyFingerprint, parseEd25519PublicKey } from './keys.js';

const { publicKey } = generateKeyPairSync('ed25519');
const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);

describe('parseEd25519PublicKey', () => {
  it('accepts PEM and raw base64 forms of the same key, with one fingerprint', () => {
    const fromPem = parseEd25519PublicKey(pem);
    const fromRaw = parseEd25519PublicKey(raw.toString('base64'));
    const fromUrl = parseEd25519PublicKey(raw.toString('base64url'));
    expect(keyFingerprint(fromPem)).toBe(keyFingerprint(fromRaw));
    expect(keyFingerprint(fromUrl)).toBe(keyFingerprint(fromRaw));
    expect(keyFingerprint(fromRaw)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['a raw key of the wrong length', Buffer.alloc(31, 1).toString('base64')],
    ['text that is not base64', 'not a key at all!'],
    ['a broken PEM', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----'],
    [
      'an RSA key',
      generateKeyPairSync('rsa', { modulusLength: 1024 })
        .publicKey.export({ format: 'pem', type: 'spki' })
        .toString(),
    ],
  ])('refuses %s naming the publicKey field', (_label, text) => {
    expect(() => parseEd25519PublicKey(text)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringContaining('publicKey') }),
    );
  });
});
