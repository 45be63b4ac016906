import { sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { registerTestKey, type TestSigningKey } from '../testing/signing-keys.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import {
  decisionTextFor,
  listWhitelists,
  openUnsureFinding,
  type TestDecision,
} from '../testing/whitelists.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const DAY_MS = 86_400_000;

describe.each(dialects)('the scope a person chooses in a Whitelist decision on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  const keys = new Map<string, TestSigningKey>();
  let file = 0;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  /** A signed decision as the holder of `token`, with any further body fields. */
  async function decide(token: string, gateId: string, body: TestDecision) {
    const key = keys.get(token) ?? (await registerTestKey(test.app, token));
    keys.set(token, key);
    const text = await decisionTextFor(test, gateId, body);
    const signature = sign(null, Buffer.from(text), key.privateKey).toString('base64');
    return decideTestGate(test, token, gateId, { ...body, signature });
  }

  /** An unsure finding of the analysis in a folder of its own, its false_positive_override gate, file and folder. */
  async function unsureFinding(): Promise<{ gateId: string; path: string; folder: string }> {
    file += 1;
    const folder = `src/legacy-${file}`;
    return { folder, ...(await openUnsureFinding(test, folder)) };
  }

  async function entriesFrom(gateId: string) {
    return (await listWhitelists(test)).filter((row) => row.sourceGateId === gateId);
  }

  async function statusOf(gateId: string) {
    return (await test.store.read((tx) => tx.getGate(gateId)))?.status;
  }

  it('creates the entry with the glob, every agent and the expiry the tech lead chose', async () => {
    const { gateId, folder } = await unsureFinding();
    const decided = await decide(test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'the legacy ruby port raises until it lands',
      whitelist: { path: `${folder}/**`, agents: 'every', expiresInDays: 30 },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const [entry, ...others] = await entriesFrom(gateId);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ scope: 'file', path: `${folder}/**`, agentId: null });
    expect((entry?.expiresAt as number) - (entry?.createdAt as number)).toBe(30 * DAY_MS);
    const audited = await test.services.audit.query({
      kind: 'whitelist.created',
      subject: entry?.id as string,
    });
    expect(audited.items[0]?.data).toMatchObject({ path: `${folder}/**`, agentId: null, chosen: true });
  });

  it('keeps the narrowest entry when the person chose nothing', async () => {
    const { gateId, path } = await unsureFinding();
    const decided = await decide(test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'the legacy ruby port raises until it lands',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await entriesFrom(gateId)).toEqual([expect.objectContaining({ path, agentId: test.ids.agentId })]);
  });

  it.each([
    ['**', 'matches every file'],
    ['**/*', 'matches every file'],
    ['src/other/**', "does not match the finding's file"],
  ])('refuses the glob %s with a 400 naming whitelist.path, recording nothing', async (glob, words) => {
    const { gateId } = await unsureFinding();
    const refused = await decide(test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'the legacy ruby port raises until it lands',
      whitelist: { path: glob },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'whitelist.path' },
    });
    expect(refused.json().error.message).toContain(words);
    expect(await statusOf(gateId)).toBe('pending');
    expect(await entriesFrom(gateId)).toEqual([]);
  });

  it('refuses a developer’s wider scope: only tech leads and admins whitelist', async () => {
    const { gateId, folder } = await unsureFinding();
    const refused = await decide(test.tokens.developer, gateId, {
      option: 'whitelist',
      reason: 'the legacy ruby port raises until it lands',
      whitelist: { path: `${folder}/**`, agents: 'every' },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.code).toBe('ROLE_TOO_LOW');
    expect(await statusOf(gateId)).toBe('pending');
    expect(await entriesFrom(gateId)).toEqual([]);
  });

  it('refuses a whitelist scope on another option, and an expiry past 90 days, naming the field', async () => {
    const { gateId } = await unsureFinding();
    const legitimate = await decide(test.tokens.techLead, gateId, {
      option: 'legitimate',
      reason: 'the legacy ruby port raises until it lands',
      whitelist: { agents: 'every' },
    });
    expect(legitimate.statusCode, legitimate.body).toBe(400);
    expect(legitimate.json().error.message).toMatch(/^whitelist: /);
    const longer = await decide(test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'the legacy ruby port raises until it lands',
      whitelist: { expiresInDays: 365 },
    });
    expect(longer.statusCode, longer.body).toBe(400);
    expect(longer.json().error.message).toContain('whitelist.expiresInDays');
    expect(await statusOf(gateId)).toBe('pending');
    expect(await entriesFrom(gateId)).toEqual([]);
  });
});
