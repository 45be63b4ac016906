import { sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate } from '../testing/gates.js';
import { createRunViaApi } from '../testing/runs.js';
import { registerTestKey, type TestSigningKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import {
  decideSignedGate,
  decisionTextFor,
  listWhitelists,
  openUnsureFinding,
  postWhitelist,
} from '../testing/whitelists.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('whitelist decisions on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  const keys = new Map<string, TestSigningKey>();

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  /** A signed decision as the holder of `token`, answered as it comes. */
  async function decide(token: string, gateId: string, body: { option: string; reason?: string }) {
    const key = keys.get(token) ?? (await registerTestKey(test.app, token));
    keys.set(token, key);
    const text = await decisionTextFor(test, gateId, body);
    const signature = sign(null, Buffer.from(text), key.privateKey).toString('base64');
    return decideTestGate(test, token, gateId, { ...body, signature });
  }

  async function statusOf(gateId: string) {
    return (await test.store.read((tx) => tx.getGate(gateId)))?.status;
  }

  async function entriesFrom(gateId: string) {
    return (await listWhitelists(test)).filter((row) => row.sourceGateId === gateId);
  }

  /** A false_positive_override gate the agent opened itself, with a finding of its own making. */
  function agentRaised(context: Record<string, unknown>): Promise<string> {
    return openTestGate(test, {
      operation: 'this finding is wrong',
      gateType: 'false_positive_override',
      context: { falsePositiveReported: true, ...context },
    });
  }

  it('whitelists a reported finding for its exact file and the run’s agent only', async () => {
    const run = await createRunViaApi(test);
    const file = `src/cache-${dialect}.ts`;
    const report = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze/findings/report',
      headers: bearer(test.tokens.developer),
      payload: {
        runId: run.id,
        finding: { pattern: 'lazy.error_swallowed', file, line: 3 },
        reason: 'the cache write is best effort',
      },
    });
    expect(report.statusCode, report.body).toBe(201);
    const gateId = report.json().gate.id;
    await decideSignedGate(test, test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'best-effort cache writes may swallow errors',
    });
    expect(await entriesFrom(gateId)).toEqual([
      expect.objectContaining({
        pattern: 'lazy.error_swallowed',
        scope: 'file',
        path: file,
        agentId: test.ids.agentId,
      }),
    ]);
  });

  it('whitelists an unsure finding of the analysis for its exact file and the run’s agent only', async () => {
    const { gateId, path } = await openUnsureFinding(test, `lib/${dialect}`);
    const gate = (
      await test.app.inject({
        method: 'GET',
        url: `/v1/gates/${gateId}`,
        headers: bearer(test.tokens.techLead),
      })
    ).json().gate;
    expect(gate).toMatchObject({ type: 'false_positive_override', requestedBy: `agent:${test.ids.agentId}` });
    await decideSignedGate(test, test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'ruby stubs raise until the port lands',
    });
    expect(await entriesFrom(gateId)).toEqual([
      expect.objectContaining({ scope: 'file', path, agentId: test.ids.agentId }),
    ]);
  });

  it('refuses to whitelist a finding the agent raised itself and records no entry', async () => {
    const gateId = await agentRaised({
      findingKey: 'test.removed|**|x',
      pattern: 'test.removed',
      files: ['**'],
    });
    const refused = await decide(test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'the agent says the tests were obsolete',
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'INVALID_OPTION' });
    expect(refused.json().error.message).toMatch(/whitelists page|POST \/v1\/whitelists/);
    expect(await statusOf(gateId)).toBe('pending');
    expect(await entriesFrom(gateId)).toEqual([]);
    expect((await listWhitelists(test)).filter((row) => row.path === '**')).toEqual([]);
  });

  it('refuses a Whitelist decision on a gate without a finding, and a developer’s by role', async () => {
    const gateId = await agentRaised({ note: 'nothing to whitelist here' });
    const developer = await decide(test.tokens.developer, gateId, {
      option: 'whitelist',
      reason: 'a developer would like it gone',
    });
    expect(developer.statusCode, developer.body).toBe(403);
    expect(developer.json().error.code).toBe('ROLE_TOO_LOW');
    const lead = await decide(test.tokens.techLead, gateId, {
      option: 'whitelist',
      reason: 'a tech lead would like it gone',
    });
    expect(lead.statusCode, lead.body).toBe(400);
    expect(lead.json().error.code).toBe('INVALID_OPTION');
    expect(lead.json().error.message).toMatch(/names no finding/);
    expect(await statusOf(gateId)).toBe('pending');
    expect(await entriesFrom(gateId)).toEqual([]);
  });

  it('refuses an unknown pattern id, naming the field', async () => {
    const response = await postWhitelist(test, test.tokens.techLead, {
      pattern: 'lazy.todo_left',
      scope: 'global',
      justification: 'todos live in the issue tracker',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(response.json().error.message).toMatch(/^pattern: /);
    expect(response.json().error.message).toContain('lazy.error_swallowed');
  });
});
