import { createFakeClock } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunViaApi } from '../testing/runs.js';
import { registerTestKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { decideSignedGate, listWhitelists, postWhitelist } from '../testing/whitelists.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const DAY = 86_400_000;

function placeholder(path: string): { path: string; before: string; after: string }[] {
  return [
    {
      path,
      before: 'export function total(): number {\n  return 1;\n}\n',
      after: "export function total(): number {\n  throw new Error('not implemented');\n}\n",
    },
  ];
}

describe.each(dialects)('whitelist expiry on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;

  beforeAll(async () => {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 3_600_000 } });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(runId: string, path: string) {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: { runId, files: placeholder(path) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function entryOf(id: string) {
    return (await listWhitelists(test)).find((row) => row.id === id);
  }

  it('stops suppressing after 90 days, opens one re-review gate, and a Whitelist decision renews it', async () => {
    const created = await postWhitelist(test, test.tokens.techLead, {
      pattern: 'lazy.placeholder_body',
      scope: 'file',
      path: 'gen/**',
      justification: 'generated code is filled in by the build',
    });
    const entry = created.json().whitelist;
    const { privateKey } = await registerTestKey(test.app, test.tokens.techLead);
    const run = await createRunViaApi(test);
    expect((await analyze(run.id, 'gen/a.ts')).verdict.laziness).toEqual([]);

    test.clock.advance(90 * DAY - 1);
    expect(await entryOf(entry.id)).toMatchObject({ status: 'active', reviewGateId: null });
    test.clock.advance(1);
    const expired = await entryOf(entry.id);
    expect(expired).toMatchObject({ status: 'expired', reviewGateId: expect.any(String) });
    const gate = await test.store.read((tx) => tx.getGate(expired?.reviewGateId as string));
    expect(gate).toMatchObject({ type: 'false_positive_override', status: 'pending' });
    expect(gate?.context).toMatchObject({ whitelistReview: entry.id, pattern: 'lazy.placeholder_body' });
    // Read again, or analysed: still the one gate.
    const again = await analyze(run.id, 'gen/a.ts');
    expect(again.verdict.laziness).toEqual(['lazy.placeholder_body|gen/a.ts|total']);
    expect((await entryOf(entry.id))?.reviewGateId).toBe(gate?.id);
    const pending = await test.store.read((tx) =>
      tx.listGates({ type: 'false_positive_override', status: 'pending', limit: 100 }),
    );
    expect(pending.items.filter((item) => item.context.whitelistReview === entry.id)).toHaveLength(1);

    await decideSignedGate(
      test,
      test.tokens.techLead,
      gate?.id as string,
      {
        option: 'whitelist',
        reason: 'still generated',
      },
      privateKey,
    );
    const renewed = await entryOf(entry.id);
    expect(renewed).toMatchObject({ status: 'active', reviewGateId: null, reviewedAt: test.clock.now() });
    expect(renewed?.expiresAt).toBe(test.clock.now() + 90 * DAY);
    expect((await analyze(run.id, 'gen/b.ts')).verdict.laziness).toEqual([]);
  });

  it('renews an entry through POST /v1/whitelists/:id/renew for a tech lead only', async () => {
    const created = await postWhitelist(test, test.tokens.techLead, {
      pattern: 'lazy.test_commented_out',
      scope: 'global',
      justification: 'old specs are kept commented out as examples',
    });
    const entry = created.json().whitelist;
    test.clock.advance(91 * DAY);
    expect(await entryOf(entry.id)).toMatchObject({ status: 'expired' });
    const url = `/v1/whitelists/${entry.id}/renew`;
    const refused = await test.app.inject({
      method: 'POST',
      url,
      headers: bearer(test.tokens.developer),
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    const response = await test.app.inject({
      method: 'POST',
      url,
      headers: bearer(test.tokens.techLead),
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().whitelist).toMatchObject({
      status: 'active',
      expiresAt: test.clock.now() + 90 * DAY,
      reviewedAt: test.clock.now(),
      reviewGateId: null,
    });
  });

  it('closes the re-review gate of an expired entry renewed through the API', async () => {
    const created = await postWhitelist(test, test.tokens.techLead, {
      pattern: 'lazy.suppression_added',
      scope: 'file',
      path: 'types/**',
      justification: 'hand-written type shims need the suppressions',
    });
    const entry = created.json().whitelist;
    test.clock.advance(91 * DAY);
    const reviewGateId = (await entryOf(entry.id))?.reviewGateId as string;
    expect(reviewGateId).toEqual(expect.any(String));
    const response = await test.app.inject({
      method: 'POST',
      url: `/v1/whitelists/${entry.id}/renew`,
      headers: bearer(test.tokens.techLead),
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    const gate = await test.store.read((tx) => tx.getGate(reviewGateId));
    expect(gate).toMatchObject({
      status: 'cancelled',
      decision: { decidedBy: `user:${test.ids.techLeadId}` },
    });
    const closed = await test.services.audit.query({ kind: 'gate.cancelled', subject: reviewGateId });
    expect(closed.items).toHaveLength(1);
  });
});
