import { canonicalJson } from '@gatehouse/core';
import { describe, expect, it } from 'vitest';
import { signDecision, signedDecisionText } from './decision-signature.js';
import type { StoredSigningKey } from './key-store.js';

async function memoryKey(): Promise<StoredSigningKey> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  return {
    userId: 'user_a',
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    publicKeyBase64: '',
    fingerprint: '',
    createdAt: 0,
  };
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

describe('signed decisions', () => {
  it.each([
    ['a payload hash', 'ab'.repeat(32)],
    ['no payload hash', null],
  ])('sign the canonical JSON the server verifies, with %s', async (_, payloadHash) => {
    expect(signedDecisionText('gate_1', 'approve', payloadHash)).toBe(
      canonicalJson({ option: 'approve', payloadHash, gateId: 'gate_1' }),
    );
    const key = await memoryKey();
    const signature = await signDecision(key, { id: 'gate_1', payloadHash }, 'approve');
    const text = new TextEncoder().encode(
      canonicalJson({ gateId: 'gate_1', option: 'approve', payloadHash }),
    );
    expect(fromBase64(signature)).toHaveLength(64);
    expect(await crypto.subtle.verify({ name: 'Ed25519' }, key.publicKey, fromBase64(signature), text)).toBe(
      true,
    );
  });

  it('binds the option: a signature for approve does not verify for reject', async () => {
    const key = await memoryKey();
    const signature = await signDecision(key, { id: 'gate_1', payloadHash: null }, 'approve');
    const other = new TextEncoder().encode(signedDecisionText('gate_1', 'reject', null));
    expect(await crypto.subtle.verify({ name: 'Ed25519' }, key.publicKey, fromBase64(signature), other)).toBe(
      false,
    );
  });
});
