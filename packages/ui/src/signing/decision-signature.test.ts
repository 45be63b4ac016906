import { keyProofText, signedDecisionText } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { signDecision, signKeyProof } from './decision-signature.js';
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
const encode = (text: string) => new TextEncoder().encode(text);

async function verifies(key: StoredSigningKey, signature: string, text: string): Promise<boolean> {
  return crypto.subtle.verify({ name: 'Ed25519' }, key.publicKey, fromBase64(signature), encode(text));
}

describe('signed decisions', () => {
  it.each([
    ['a payload hash', 'ab'.repeat(32)],
    ['no payload hash', null],
  ])("sign core's v2 text the server verifies, with %s", async (_, payloadHash) => {
    const key = await memoryKey();
    const words = { option: 'steer', reason: 'too wide', instructions: 'only build/' };
    const signature = await signDecision(
      key,
      { id: 'gate_1', payloadHash, type: 'tool_call', context: {} },
      words,
    );
    expect(fromBase64(signature)).toHaveLength(64);
    const text = signedDecisionText({ gateId: 'gate_1', payloadHash, ...words });
    expect(text.startsWith('gatehouse-decision-v2\n')).toBe(true);
    expect(await verifies(key, signature, text)).toBe(true);
  });

  it('binds the option and the words: another option or reason does not verify', async () => {
    const key = await memoryKey();
    const gate = { id: 'gate_1', payloadHash: null, type: 'tool_call', context: {} };
    const signature = await signDecision(key, gate, { option: 'approve', reason: 'ok' });
    const base = { gateId: 'gate_1', payloadHash: null };
    expect(
      await verifies(key, signature, signedDecisionText({ ...base, option: 'reject', reason: 'ok' })),
    ).toBe(false);
    expect(
      await verifies(key, signature, signedDecisionText({ ...base, option: 'approve', reason: 'changed' })),
    ).toBe(false);
  });

  it('binds a Whitelist decision’s scope on a finding: another scope does not verify', async () => {
    const key = await memoryKey();
    const gate = { id: 'gate_1', payloadHash: null, type: 'false_positive_override', context: {} };
    const whitelist = { path: 'lib/legacy/**', agents: 'every' as const, expiresInDays: 30 };
    const signature = await signDecision(key, gate, { option: 'whitelist', whitelist });
    const base = { gateId: 'gate_1', option: 'whitelist', payloadHash: null };
    expect(await verifies(key, signature, signedDecisionText({ ...base, whitelist }))).toBe(true);
    expect(await verifies(key, signature, signedDecisionText(base))).toBe(false);
    expect(
      await verifies(
        key,
        signature,
        signedDecisionText({ ...base, whitelist: { ...whitelist, path: null } }),
      ),
    ).toBe(false);
  });

  it('proves a key over the challenge and the person', async () => {
    const key = await memoryKey();
    const proof = await signKeyProof(key, 'ghk_challenge', 'user_a');
    expect(await verifies(key, proof, keyProofText({ challenge: 'ghk_challenge', userId: 'user_a' }))).toBe(
      true,
    );
    expect(await verifies(key, proof, keyProofText({ challenge: 'ghk_challenge', userId: 'user_b' }))).toBe(
      false,
    );
  });
});
