import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createFakeClock, keyProofText, signedDecisionText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

function rawOf(publicKey: KeyObject): string {
  return publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
}

function signed(privateKey: KeyObject, text: string): string {
  return sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
}

describe.each(dialects)('listing, naming and revoking signing keys on %s', (dialect) => {
  let live: ListeningApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await live?.close();
  });

  async function register(
    token: string,
    userId: string,
    privateKey: KeyObject,
    publicKey: KeyObject,
    name?: string,
  ) {
    const challenge = (await live.client.call('GET', '/v1/me/keys/challenge', { token })).body.challenge;
    const proof = signed(privateKey, keyProofText({ challenge, userId }));
    const answer = await live.client.call('POST', '/v1/me/keys', {
      token,
      body: { publicKey: rawOf(publicKey), challenge, proof, ...(name === undefined ? {} : { name }) },
    });
    expect(answer.status).toBe(201);
    return answer.body.key;
  }

  it('lists my own keys with their names, and renames one', async () => {
    live = await startListeningApp({ dialect, clock: createFakeClock() });
    const { tokens, ids } = live.test;
    const laptop = generateKeyPairSync('ed25519');
    const phone = generateKeyPairSync('ed25519');
    const first = await register(
      tokens.developer,
      ids.developerId,
      laptop.privateKey,
      laptop.publicKey,
      'Laptop',
    );
    const second = await register(tokens.developer, ids.developerId, phone.privateKey, phone.publicKey);
    const theirs = generateKeyPairSync('ed25519');
    await register(tokens.techLead, ids.techLeadId, theirs.privateKey, theirs.publicKey);

    const listed = await live.client.call('GET', '/v1/me/keys', { token: tokens.developer });
    expect(listed.status).toBe(200);
    expect(listed.body.keys.map((key: { id: string; name: string | null }) => [key.id, key.name])).toEqual([
      [first.id, 'Laptop'],
      [second.id, null],
    ]);

    const renamed = await live.client.call('PATCH', `/v1/me/keys/${second.id}`, {
      token: tokens.developer,
      body: { name: 'Phone' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.key).toMatchObject({ id: second.id, name: 'Phone' });
    const me = await live.client.call('GET', '/v1/me', { token: tokens.developer });
    expect(me.body.keys.map((key: { name: string | null }) => key.name)).toEqual(['Laptop', 'Phone']);

    const notMine = await live.client.call('PATCH', `/v1/me/keys/${second.id}`, {
      token: tokens.techLead,
      body: { name: 'Mine now' },
    });
    expect(notMine.status).toBe(404);
    expect(notMine.body.error.code).toBe('NOT_FOUND');
  });

  it('revokes a key: it is no longer listed, no longer verifies a signature, and the audit says so', async () => {
    live = await startListeningApp({ dialect, clock: createFakeClock() });
    await useTestPolicy(live.test);
    const { tokens, ids } = live.test;
    const keys = generateKeyPairSync('ed25519');
    const key = await register(
      tokens.developer,
      ids.developerId,
      keys.privateKey,
      keys.publicKey,
      'Old laptop',
    );

    const otherPerson = await live.client.call('DELETE', `/v1/me/keys/${key.id}`, { token: tokens.techLead });
    expect(otherPerson.status).toBe(404);

    const revoked = await live.client.call('DELETE', `/v1/me/keys/${key.id}`, { token: tokens.developer });
    expect(revoked.status).toBe(200);
    const again = await live.client.call('DELETE', `/v1/me/keys/${key.id}`, { token: tokens.developer });
    expect(again.status).toBe(404);
    const listed = await live.client.call('GET', '/v1/me/keys', { token: tokens.developer });
    expect(listed.body.keys).toEqual([]);
    const challenge = (await live.client.call('GET', '/v1/me/keys/challenge', { token: tokens.developer }))
      .body.challenge;
    const reused = await live.client.call('POST', '/v1/me/keys', {
      token: tokens.developer,
      body: {
        publicKey: rawOf(keys.publicKey),
        challenge,
        proof: signed(keys.privateKey, keyProofText({ challenge, userId: ids.developerId })),
      },
    });
    expect(reused.status).toBe(409);
    expect(reused.body.error.details).toMatchObject({ keyId: key.id, revoked: true });

    const opened = await live.client.call('POST', '/v1/gates', {
      token: tokens.agent,
      body: { tool: 'wire_money', args: { amount: 100 } },
    });
    const gate = opened.body.gate;
    const text = signedDecisionText({ gateId: gate.id, option: 'approve', payloadHash: gate.payloadHash });
    const decided = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.developer,
      body: { option: 'approve', signature: signed(keys.privateKey, text) },
    });
    expect(decided.status).toBe(400);
    expect(decided.body.error.code).toBe('SIGNATURE_INVALID');

    const exported: string = (await live.client.call('GET', '/v1/audit/export', { token: tokens.admin }))
      .body;
    const event = exported
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line))
      .find((entry) => entry.kind === 'key.revoked');
    expect(event).toMatchObject({ actor: `user:${ids.developerId}`, data: { keyId: key.id } });
  });
});
