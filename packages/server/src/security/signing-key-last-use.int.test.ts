import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createFakeClock, keyProofText, signedDecisionText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

function signed(privateKey: KeyObject, text: string): string {
  return sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
}

describe.each(dialects)("a signing key's last use on %s", (dialect) => {
  let live: ListeningApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await live?.close();
  });

  async function register(token: string, userId: string, name: string) {
    const pair = generateKeyPairSync('ed25519');
    const { challenge } = (await live.client.call('GET', '/v1/me/keys/challenge', { token })).body;
    const proof = signed(pair.privateKey, keyProofText({ challenge, userId }));
    const publicKey = pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
    const answer = await live.client.call('POST', '/v1/me/keys', {
      token,
      body: { publicKey, challenge, proof, name },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.key.lastUsedAt).toBeNull();
    return { ...pair, id: answer.body.key.id as string };
  }

  async function lastUses(token: string): Promise<Record<string, number | null>> {
    const listed = await live.client.call('GET', '/v1/me/keys', { token });
    expect(listed.status).toBe(200);
    return Object.fromEntries(
      listed.body.keys.map((key: { name: string; lastUsedAt: number | null }) => [key.name, key.lastUsedAt]),
    );
  }

  it('is recorded when a decision signed with the key verifies, and never for a refused one', async () => {
    const clock = createFakeClock();
    live = await startListeningApp({ dialect, clock });
    await useTestPolicy(live.test);
    const { tokens, ids } = live.test;
    const laptop = await register(tokens.developer, ids.developerId, 'Work laptop');
    await register(tokens.developer, ids.developerId, 'Home desktop');
    const opened = await live.client.call('POST', '/v1/gates', {
      token: tokens.agent,
      body: { tool: 'wire_money', args: { amount: 100 } },
    });
    const gate = opened.body.gate;
    expect(gate.signatureRequired).toBe(true);
    const text = signedDecisionText({ gateId: gate.id, option: 'approve', payloadHash: gate.payloadHash });

    clock.advance(60_000);
    const refused = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.developer,
      body: { option: 'approve', reason: 'not what was signed', signature: signed(laptop.privateKey, text) },
    });
    expect(refused.body.error?.code).toBe('SIGNATURE_INVALID');
    expect(await lastUses(tokens.developer)).toEqual({ 'Work laptop': null, 'Home desktop': null });

    clock.advance(60_000);
    const decidedAt = clock.now();
    const good = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.developer,
      body: { option: 'approve', signature: signed(laptop.privateKey, text) },
    });
    expect(good.status).toBe(200);
    expect(await lastUses(tokens.developer)).toEqual({ 'Work laptop': decidedAt, 'Home desktop': null });
    const me = await live.client.call('GET', '/v1/me', { token: tokens.developer });
    expect(me.body.keys.find((key: { id: string }) => key.id === laptop.id).lastUsedAt).toBe(decidedAt);
  });
});
