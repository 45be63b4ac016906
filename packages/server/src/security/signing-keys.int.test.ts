import { generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { createFakeClock, keyProofText, signedDecisionText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { TEST_PASSWORD, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

interface Pair {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

function rawOf(publicKey: KeyObject): string {
  return publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
}

function signed(privateKey: KeyObject, text: string): string {
  return sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
}

describe.each(dialects)('signing keys and signed decisions on %s', (dialect) => {
  let live: ListeningApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await live?.close();
  });

  async function start() {
    live = await startListeningApp({ dialect, clock: createFakeClock() });
    return live;
  }

  async function challengeFor(token: string): Promise<string> {
    const answer = await live.client.call('GET', '/v1/me/keys/challenge', { token });
    expect(answer.status).toBe(200);
    return answer.body.challenge;
  }

  /** Registers `keys.publicKey` for the person behind `token`, proving the private half. */
  async function register(token: string, userId: string, keys: Pair, extra: Record<string, unknown> = {}) {
    const challenge = await challengeFor(token);
    const proof = signed(keys.privateKey, keyProofText({ challenge, userId }));
    return live.client.call('POST', '/v1/me/keys', {
      token,
      body: { publicKey: rawOf(keys.publicKey), challenge, proof, ...extra },
    });
  }

  it('registers a key once per person: the same public key for someone else is a 409', async () => {
    await start();
    const { tokens, ids } = live.test;
    const leads = generateKeyPairSync('ed25519');
    expect((await register(tokens.techLead, ids.techLeadId, leads)).status).toBe(201);
    const stolen = await register(tokens.admin, ids.adminId, leads);
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.code).toBe('CONFLICT');
    expect(stolen.body.error.message).toContain('someone else');
    const mine = await live.client.call('GET', '/v1/me', { token: tokens.admin });
    expect(mine.body.keys).toEqual([]);
  });

  it('registers a key only with proof of the private key over a fresh, one-time challenge', async () => {
    await start();
    const { tokens, ids } = live.test;
    const keys = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519');
    const challenge = await challengeFor(tokens.developer);
    const wrongKey = await live.client.call('POST', '/v1/me/keys', {
      token: tokens.developer,
      body: {
        publicKey: rawOf(keys.publicKey),
        challenge,
        proof: signed(other.privateKey, keyProofText({ challenge, userId: ids.developerId })),
      },
    });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.error).toMatchObject({ code: 'SIGNATURE_INVALID', details: { field: 'proof' } });
    const proof = signed(keys.privateKey, keyProofText({ challenge, userId: ids.developerId }));
    const body = { publicKey: rawOf(keys.publicKey), challenge, proof };
    expect((await live.client.call('POST', '/v1/me/keys', { token: tokens.developer, body })).status).toBe(
      201,
    );
    const replay = await live.client.call('POST', '/v1/me/keys', { token: tokens.viewer, body });
    expect(replay.status).toBe(400);
    expect(replay.body.error.message).toContain('challenge');
  });

  it('asks for the password to register a key once the sign-in is over 5 minutes old', async () => {
    await start();
    const { tokens, ids } = live.test;
    live.test.clock.advance(5 * 60_000 + 1);
    const keys = generateKeyPairSync('ed25519');
    const stale = await register(tokens.developer, ids.developerId, keys);
    expect(stale.status).toBe(403);
    expect(stale.body.error.code).toBe('REAUTHENTICATION_REQUIRED');
    const wrong = await register(tokens.developer, ids.developerId, keys, { password: 'not the password' });
    expect(wrong.status).toBe(403);
    const right = await register(tokens.developer, ids.developerId, keys, { password: TEST_PASSWORD });
    expect(right.status).toBe(201);
  });

  it('signs the reason, feedback and instructions too, and the audit still verifies offline', async () => {
    await start();
    await useTestPolicy(live.test);
    const { tokens, ids } = live.test;
    const keys = generateKeyPairSync('ed25519');
    expect((await register(tokens.developer, ids.developerId, keys)).status).toBe(201);
    const opened = await live.client.call('POST', '/v1/gates', {
      token: tokens.agent,
      body: { tool: 'wire_money', args: { amount: 100 } },
    });
    const gate = opened.body.gate;
    expect(gate.signatureRequired).toBe(true);
    // A hidden character is signed as the marker the server stores, so the audit still verifies.
    const fields = {
      gateId: gate.id,
      option: 'approve',
      payloadHash: gate.payloadHash,
      reason: 'invoice 7\u200b',
    };
    const signature = signed(keys.privateKey, signedDecisionText(fields));
    const swapped = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.developer,
      body: { option: 'approve', reason: 'something else entirely', signature },
    });
    expect(swapped.status).toBe(400);
    expect(swapped.body.error.code).toBe('SIGNATURE_INVALID');
    expect(swapped.body.error.details.signedText).toBe(
      signedDecisionText({ ...fields, reason: 'something else entirely' }),
    );
    const good = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.developer,
      body: { option: 'approve', reason: 'invoice 7\u200b', signature },
    });
    expect(good.status).toBe(200);

    const exported: string = (await live.client.call('GET', '/v1/audit/export', { token: tokens.admin }))
      .body;
    const decided = exported
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((event) => event.kind === 'gate.decided' && event.subject === gate.id);
    const { data } = decided;
    expect(data.signedText).toBe(signedDecisionText(fields));
    expect(data.reason).toBe('invoice 7⟨U+200B⟩');
    const rebuilt = signedDecisionText({
      gateId: decided.subject,
      option: data.option,
      payloadHash: data.payloadHash,
      reason: data.reason,
      feedback: data.feedback,
      instructions: data.instructions,
    });
    const publicKey = {
      key: Buffer.concat([SPKI_PREFIX, Buffer.from(data.publicKey, 'base64')]),
      format: 'der' as const,
      type: 'spki' as const,
    };
    expect(verify(null, Buffer.from(rebuilt), publicKey, Buffer.from(data.signature, 'base64'))).toBe(true);
  });

  it('accepts a decision signed over canonical JSON v2 (gatehouse-decision-v3) and audits that text', async () => {
    await start();
    await useTestPolicy(live.test);
    const { tokens, ids } = live.test;
    const keys = generateKeyPairSync('ed25519');
    expect((await register(tokens.developer, ids.developerId, keys)).status).toBe(201);
    const opened = await live.client.call('POST', '/v1/gates', {
      token: tokens.agent,
      body: { tool: 'wire_money', args: { amount: 100 } },
    });
    const gate = opened.body.gate;
    const fields = { gateId: gate.id, option: 'approve', payloadHash: gate.payloadHash, reason: 'invoice 9' };
    const decided = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.developer,
      body: {
        option: 'approve',
        reason: 'invoice 9',
        signature: signed(keys.privateKey, signedDecisionText(fields, 2)),
      },
    });
    expect(decided.status).toBe(200);
    const exported: string = (await live.client.call('GET', '/v1/audit/export', { token: tokens.admin }))
      .body;
    const event = exported
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((line) => line.kind === 'gate.decided' && line.subject === gate.id);
    expect(event.data.signedText).toBe(signedDecisionText(fields, 2));
  });
});
