import { generateKeyPairSync, sign } from 'node:crypto';
import { createGateCatalog, type Gate, openGate, signedDecisionText } from 'gatehouse-hitl-core';
import type { SigningKeyRecord } from 'gatehouse-hitl-store';
import { describe, expect, it } from 'vitest';
import { verifyDecisionSignature } from './signatures.js';

const gate: Gate = {
  ...openGate(
    { type: 'tool_call', signature: true },
    { id: 'gate_sig', now: 0, catalog: createGateCatalog() },
  ),
  payloadHash: 'a'.repeat(64),
};

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
  const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  return { raw, pem, privateKey };
}

function record(publicKey: string, revokedAt: number | null = null): SigningKeyRecord {
  return {
    id: `key_${publicKey.length}_${revokedAt}`,
    userId: 'user_a',
    publicKey,
    fingerprint: `fp_${publicKey.length}`,
    name: null,
    createdAt: 0,
    revokedAt,
    lastUsedAt: null,
  };
}

function signText(
  privateKey: ReturnType<typeof keyPair>['privateKey'],
  option: string,
  encoding: BufferEncoding = 'base64',
  reason?: string,
) {
  const text = signedDecisionText({ gateId: gate.id, option, payloadHash: gate.payloadHash, reason });
  return sign(null, Buffer.from(text), privateKey).toString(encoding);
}

describe('verifyDecisionSignature', () => {
  it('verifies over the reason too: a signature for one reason does not cover another', () => {
    const pair = keyPair();
    const signature = signText(pair.privateKey, 'approve', 'base64', 'invoice 7');
    const keys = [record(pair.raw)];
    expect(
      verifyDecisionSignature({ gate, option: 'approve', words: { reason: 'invoice 7' }, signature, keys })
        .keyId,
    ).toBe(keys[0]?.id);
    expect(() =>
      verifyDecisionSignature({ gate, option: 'approve', words: { reason: 'invoice 8' }, signature, keys }),
    ).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
  });

  it.each(['raw', 'pem'] as const)('accepts a signature that verifies with a %s key', (form) => {
    const pair = keyPair();
    const verified = verifyDecisionSignature({
      gate,
      option: 'approve',
      signature: signText(pair.privateKey, 'approve'),
      keys: [record(keyPair().raw), record(pair[form])],
    });
    expect(verified.publicKey).toBe(pair[form]);
  });

  it('accepts base64url signatures', () => {
    const pair = keyPair();
    const signature = signText(pair.privateKey, 'approve', 'base64url');
    expect(
      verifyDecisionSignature({ gate, option: 'approve', signature, keys: [record(pair.raw)] }).signature,
    ).toBe(signature);
  });

  it('accepts a signature over the canonical JSON v2 text (gatehouse-decision-v3) and says which it verified', () => {
    const pair = keyPair();
    const fields = { gateId: gate.id, option: 'approve', payloadHash: gate.payloadHash, reason: 'ok' };
    const keys = [record(pair.raw)];
    const sign2 = sign(null, Buffer.from(signedDecisionText(fields, 2)), pair.privateKey).toString('base64');
    const sign1 = sign(null, Buffer.from(signedDecisionText(fields)), pair.privateKey).toString('base64');
    const words = { reason: 'ok' };
    expect(
      verifyDecisionSignature({ gate, option: 'approve', words, signature: sign2, keys }).canonical,
    ).toBe(2);
    expect(
      verifyDecisionSignature({ gate, option: 'approve', words, signature: sign1, keys }).canonical,
    ).toBe(1);
    expect(() => verifyDecisionSignature({ gate, option: 'reject', words, signature: sign2, keys })).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
  });

  it('asks for a signature when none was sent', () => {
    expect(() =>
      verifyDecisionSignature({ gate, option: 'approve', signature: undefined, keys: [] }),
    ).toThrow(expect.objectContaining({ code: 'SIGNATURE_REQUIRED' }));
  });

  it.each([
    ['another option', (pair: ReturnType<typeof keyPair>) => signText(pair.privateKey, 'reject'), false],
    ['garbage', () => 'not a signature!', false],
    ['a revoked key', (pair: ReturnType<typeof keyPair>) => signText(pair.privateKey, 'approve'), true],
  ])('refuses a signature over %s', (_name, make, revoked) => {
    const pair = keyPair();
    const keys = [record(pair.raw, revoked ? 1 : null)];
    expect(() => verifyDecisionSignature({ gate, option: 'approve', signature: make(pair), keys })).toThrow(
      expect.objectContaining({ code: 'SIGNATURE_INVALID' }),
    );
  });
});
