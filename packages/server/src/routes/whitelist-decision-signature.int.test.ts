import { sign } from 'node:crypto';
import { signedDecisionText } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { registerTestKey, type TestSigningKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import {
  decisionTextFor,
  listWhitelists,
  openUnsureFinding,
  type TestDecision,
} from '../testing/whitelists.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const REASON = 'the legacy ruby port raises until it lands';

describe.each(dialects)('the whitelist scope a signed decision covers on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let key: TestSigningKey;
  let folders = 0;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
    key = await registerTestKey(test.app, test.tokens.techLead);
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function finding() {
    folders += 1;
    const folder = `lib/port-${folders}`;
    return { folder, ...(await openUnsureFinding(test, folder)) };
  }

  /** Sends `sent` with a tech lead's signature over the text `signed`. */
  function decide(gateId: string, sent: TestDecision, signed: string) {
    const signature = sign(null, Buffer.from(signed), key.privateKey).toString('base64');
    return decideTestGate(test, test.tokens.techLead, gateId, { ...sent, signature });
  }

  async function nothingRecorded(gateId: string) {
    expect((await test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');
    expect((await listWhitelists(test)).filter((row) => row.sourceGateId === gateId)).toEqual([]);
  }

  it('creates the entry when the signature covers the scope sent, and the audit keeps the signed scope', async () => {
    const { gateId, folder } = await finding();
    const body: TestDecision = {
      option: 'whitelist',
      reason: REASON,
      whitelist: { path: `${folder}/**`, agents: 'every', expiresInDays: 30 },
    };
    const text = await decisionTextFor(test, gateId, body);
    expect(text).toContain(`"whitelist":{"agents":"every","expiresInDays":30,"path":"${folder}/**"}`);
    const decided = await decide(gateId, body, text);
    expect(decided.statusCode, decided.body).toBe(200);
    const signedScope = { path: `${folder}/**`, agents: 'every', expiresInDays: 30 };
    const audited = await test.services.audit.query({ kind: 'gate.decided', subject: gateId });
    expect(audited.items[0]?.data).toMatchObject({ signedText: text, whitelist: signedScope });
    const shown = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(test.tokens.viewer),
    });
    expect(shown.json().gate.decision.whitelist).toEqual(signedScope);
  });

  it('signs the narrowest scope when the person chose none', async () => {
    const { gateId, path } = await finding();
    const body: TestDecision = { option: 'whitelist', reason: REASON };
    const text = await decisionTextFor(test, gateId, body);
    expect(text).toContain('"whitelist":{"agents":"this","expiresInDays":90,"path":null}');
    expect((await decide(gateId, body, text)).statusCode).toBe(200);
    const entries = (await listWhitelists(test)).filter((row) => row.sourceGateId === gateId);
    expect(entries).toEqual([expect.objectContaining({ path, agentId: test.ids.agentId })]);
  });

  it('refuses a scope sent under a signature that covers no scope, naming whitelist, recording nothing', async () => {
    const { gateId, folder } = await finding();
    const stored = await test.store.read((tx) => tx.getGate(gateId));
    const scopeless = signedDecisionText({
      gateId,
      option: 'whitelist',
      payloadHash: stored?.payloadHash ?? null,
      reason: REASON,
    });
    const refused = await decide(
      gateId,
      { option: 'whitelist', reason: REASON, whitelist: { path: `${folder}/**` } },
      scopeless,
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'SIGNATURE_INVALID',
      details: { field: 'whitelist' },
    });
    expect(refused.json().error.message).toMatch(/^whitelist: /);
    await nothingRecorded(gateId);
  });

  it('refuses every agent sent where the person signed the narrowest scope, naming whitelist', async () => {
    const { gateId } = await finding();
    const signed = await decisionTextFor(test, gateId, { option: 'whitelist', reason: REASON });
    const refused = await decide(
      gateId,
      { option: 'whitelist', reason: REASON, whitelist: { agents: 'every' } },
      signed,
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.details.field).toBe('whitelist');
    expect(refused.json().error.message).toContain('the scope sent');
    await nothingRecorded(gateId);
  });

  it('refuses a longer expiry than the one signed; the refusal names the scope it checked', async () => {
    const { gateId, folder } = await finding();
    const chosen = { path: `${folder}/**`, agents: 'every' as const, expiresInDays: 30 };
    const signed = await decisionTextFor(test, gateId, {
      option: 'whitelist',
      reason: REASON,
      whitelist: chosen,
    });
    const refused = await decide(
      gateId,
      { option: 'whitelist', reason: REASON, whitelist: { ...chosen, expiresInDays: 90 } },
      signed,
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('SIGNATURE_INVALID');
    expect(refused.json().error.message).toContain('whitelist scope');
    expect(refused.json().error.details.signedText).toContain('"expiresInDays":90');
    await nothingRecorded(gateId);
  });
});
