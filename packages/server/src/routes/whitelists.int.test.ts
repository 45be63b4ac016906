import { sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { createRunViaApi } from '../testing/runs.js';
import { registerTestKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { decideSignedGate, decisionTextFor, listWhitelists, postWhitelist } from '../testing/whitelists.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const BEFORE =
  'export function total(prices: number[]): number {\n  return prices.reduce((sum, p) => sum + p, 0);\n}\n';

/** `path` gains a not-implemented placeholder body (lazy.placeholder_body, confidence ≥ 0.7). */
function placeholder(path: string, name = 'total'): { path: string; before: string; after: string }[] {
  return [
    {
      path,
      before: BEFORE.replace('total', name),
      after: `export function ${name}(prices: number[]): number {\n  throw new Error('not implemented');\n}\n`,
    },
  ];
}

const justification = 'generated adapters are stubs until the vendor ships';

describe.each(dialects)('whitelists on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(body: Record<string, unknown>) {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function patterns(): Promise<Record<string, unknown>[]> {
    const response = await test.app.inject({
      method: 'GET',
      url: '/v1/analysis/patterns',
      headers: bearer(test.tokens.viewer),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().patterns;
  }

  it('lets a tech lead create and delete entries, people read them, and refuses agents', async () => {
    const body = { pattern: 'lazy.test_commented_out', scope: 'file', path: 'docs/**', justification };
    expect((await postWhitelist(test, test.tokens.agent, body)).statusCode).toBe(403);
    expect((await postWhitelist(test, test.tokens.developer, body)).statusCode).toBe(403);
    expect(
      (await postWhitelist(test, test.tokens.techLead, { ...body, justification: 'short' })).statusCode,
    ).toBe(400);
    expect((await postWhitelist(test, test.tokens.techLead, { ...body, path: undefined })).statusCode).toBe(
      400,
    );
    const created = await postWhitelist(test, test.tokens.techLead, body);
    expect(created.statusCode, created.body).toBe(201);
    const entry = created.json().whitelist;
    expect(entry).toMatchObject({
      pattern: 'lazy.test_commented_out',
      scope: 'file',
      path: 'docs/**',
      createdBy: `user:${test.ids.techLeadId}`,
      status: 'active',
      suppressed: 0,
    });
    expect(entry.expiresAt - entry.createdAt).toBe(90 * 86_400_000);
    expect((await listWhitelists(test)).map((row) => row.id)).toContain(entry.id);
    const agentList = await test.app.inject({
      method: 'GET',
      url: '/v1/whitelists',
      headers: bearer(test.tokens.agent),
    });
    expect(agentList.statusCode).toBe(403);
    const url = `/v1/whitelists/${entry.id}`;
    expect(
      (await test.app.inject({ method: 'DELETE', url, headers: bearer(test.tokens.developer) })).statusCode,
    ).toBe(403);
    expect(
      (await test.app.inject({ method: 'DELETE', url, headers: bearer(test.tokens.techLead) })).statusCode,
    ).toBe(200);
    expect(
      (await test.app.inject({ method: 'DELETE', url, headers: bearer(test.tokens.techLead) })).statusCode,
    ).toBe(404);
    expect((await listWhitelists(test)).map((row) => row.id)).not.toContain(entry.id);
    const audit = await test.services.audit.query({ kind: 'whitelist.created', subject: entry.id });
    expect(audit.items[0]?.data).toMatchObject({ justification });
  });

  it('suppresses a whitelisted finding: no recovery, no gate, counted on the entry and the pattern', async () => {
    const path = `src/vendor-${dialect}/cart.ts`;
    const created = await postWhitelist(test, test.tokens.techLead, {
      pattern: 'lazy.placeholder_body',
      scope: 'file',
      path: `src/vendor-${dialect}/**`,
      justification,
    });
    const entry = created.json().whitelist;
    const run = await createRunViaApi(test);
    for (let i = 0; i < 3; i += 1) {
      const body = await analyze({ runId: run.id, files: placeholder(path) });
      expect(body.findings).toEqual([]);
      expect(body.verdict.laziness).toEqual([]);
      expect(body.gates).toEqual([]);
    }
    const other = await analyze({ runId: run.id, files: placeholder('src/own/cart.ts') });
    expect(other.verdict.laziness).toEqual(['lazy.placeholder_body|src/own/cart.ts|total']);
    expect((await listWhitelists(test)).find((row) => row.id === entry.id)).toMatchObject({ suppressed: 3 });
    const stats = (await patterns()).find((row) => row.pattern === 'lazy.placeholder_body');
    expect(stats).toMatchObject({ suppressed: 3 });
    expect(stats?.detections).toBeGreaterThanOrEqual(4);
    const recoveries = await test.store.read((tx) => tx.listRecoveries(run.id));
    expect(recoveries.map((recovery) => recovery.file)).toEqual(['src/own/cart.ts']);
  });

  it('takes a whitelisted skip out of the destructive-action facts: no destructive_action gate', async () => {
    const spec =
      "import { it, expect } from 'vitest';\n\nit('adds', () => {\n  expect(1 + 1).toBe(2);\n});\n\nit('is zero', () => {\n  expect(0).toBe(0);\n});\n";
    const skipped = (path: string) => [
      // Test sources as data: \u0073kip, \u006fnly and \u0078it spell skip, only and xit, so they read as no skipped test.
      { path, before: spec, after: spec.replace("it('is zero", "it.\u0073kip('is zero") },
    ];
    await postWhitelist(test, test.tokens.techLead, {
      pattern: 'test.skip_added',
      scope: 'file',
      path: `flaky-${dialect}/**`,
      justification: 'quarantined flaky suites are skipped until fixed',
    });
    const run = await createRunViaApi(test);
    const control = await analyze({ runId: run.id, files: skipped('src/cart.test.ts') });
    expect(control.facts.skipPatternsAdded).toBe(1);
    expect(control.gates).toEqual([expect.objectContaining({ type: 'destructive_action' })]);
    const allowed = await analyze({ runId: run.id, files: skipped(`flaky-${dialect}/cart.test.ts`) });
    expect(allowed.facts.skipPatternsAdded).toBe(0);
    expect(allowed.verdict.destructive.triggered).toBe(false);
    expect(allowed.gates).toEqual([]);
  });

  it('creates an entry from a tech lead’s Whitelist decision, with the reason as its justification, and refuses a developer’s', async () => {
    const finding = { pattern: 'lazy.error_swallowed', file: `src/io-${dialect}.ts`, line: 7 };
    const report = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze/findings/report',
      headers: bearer(test.tokens.developer),
      payload: { finding, reason: 'the cache write is best effort' },
    });
    const gate = report.json().gate;
    const { privateKey } = await registerTestKey(test.app, test.tokens.developer);
    const text = await decisionTextFor(test, gate.id, { option: 'whitelist', reason: 'a developer says so' });
    const refused = await decideTestGate(test, test.tokens.developer, gate.id, {
      option: 'whitelist',
      reason: 'a developer says so',
      signature: sign(null, Buffer.from(text), privateKey).toString('base64'),
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.code).toBe('ROLE_TOO_LOW');
    expect((await test.store.read((tx) => tx.getGate(gate.id)))?.status).toBe('pending');
    await decideSignedGate(test, test.tokens.techLead, gate.id, {
      option: 'whitelist',
      reason: 'best-effort cache writes may swallow errors',
    });
    const entry = (await listWhitelists(test)).find((row) => row.sourceGateId === gate.id);
    expect(entry).toMatchObject({
      pattern: 'lazy.error_swallowed',
      scope: 'file',
      path: finding.file,
      justification: 'best-effort cache writes may swallow errors',
      createdBy: `user:${test.ids.techLeadId}`,
    });
  });

  it('lowers the confidence of a finding like a confirmed-legitimate one, sending it to a false-positive gate', async () => {
    const path = `src/learn-${dialect}.ts`;
    const first = await createRunViaApi(test);
    const seen = await analyze({ runId: first.id, files: placeholder(path, 'price') });
    const [finding] = seen.findings;
    expect(finding.confidence).toBeGreaterThanOrEqual(0.7);
    const report = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze/findings/report',
      headers: bearer(test.tokens.developer),
      payload: {
        runId: first.id,
        finding: { pattern: finding.pattern, file: path, name: 'price' },
        reason: 'a stub on purpose',
      },
    });
    await decideSignedGate(test, test.tokens.developer, report.json().gate.id, { option: 'legitimate' });
    const second = await createRunViaApi(test);
    const again = await analyze({
      runId: second.id,
      files: placeholder(`src/elsewhere-${dialect}.ts`, 'price'),
    });
    expect(again.findings[0].confidence).toBeCloseTo(finding.confidence * 0.5);
    expect(again.verdict.laziness).toEqual([]);
    expect(again.verdict.lowConfidence).toEqual([again.findings[0].key]);
    expect(again.gates).toEqual([expect.objectContaining({ type: 'false_positive_override' })]);
  });

  it('announces a pattern whose false-positive rate passes 10 %, once per crossing', async () => {
    // A pattern no other test here reports, so its rate is this test's alone.
    const pattern = 'export.class_removed';
    const now = test.clock.now();
    await test.store.transaction((tx) =>
      tx.insertDetections(
        Array.from({ length: 20 }, (_, i) => ({
          id: `det_${dialect}_${i}`,
          pattern,
          runId: null,
          findingKey: `${pattern}|src/r.ts|${i}`,
          file: 'src/r.ts',
          snippet: '',
          confidence: 0.9,
          suppressedBy: null,
          createdAt: now,
        })),
      ),
    );
    const events = async () =>
      (await test.services.audit.query({ kind: 'analysis.false_positive_rate', subject: pattern })).items;
    for (let line = 1; line <= 4; line += 1) {
      const report = await test.app.inject({
        method: 'POST',
        url: '/v1/analyze/findings/report',
        headers: bearer(test.tokens.developer),
        payload: { finding: { pattern, file: 'src/r.ts', line }, reason: 'not lazy at all' },
      });
      await decideSignedGate(test, test.tokens.developer, report.json().gate.id, { option: 'legitimate' });
      // 1/20 and 2/20 are not over 10 %; 3/20 is; 4/20 is still the same crossing.
      expect(await events()).toHaveLength(line < 3 ? 0 : 1);
    }
    expect((await events())[0]?.data).toMatchObject({
      pattern,
      detections: 20,
      falsePositives: 3,
      rate: 0.15,
    });
    const streamed = await test.store.listStreamEvents({ afterSeq: 0, limit: 10_000 });
    expect(
      streamed.filter(
        (event) => event.type === 'analysis.false_positive_rate' && event.data.pattern === pattern,
      ),
    ).toHaveLength(1);
    expect((await patterns()).find((row) => row.pattern === pattern)).toMatchObject({
      detections: 20,
      falsePositives: 4,
      falsePositiveRate: 0.2,
      alerting: true,
    });
  });
});
