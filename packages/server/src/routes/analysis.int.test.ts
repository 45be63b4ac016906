import { ANALYZE_LINES_MAX } from 'gatehouse-hitl-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunViaApi } from '../testing/runs.js';
import { snapshotState } from '../testing/state-snapshot.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const SPEC_BEFORE = [
  "import { expect, it } from 'vitest';",
  "import { total } from './cart.js';",
  '',
  "it('adds the prices', () => {",
  '  expect(total([1, 2])).toBe(3);',
  '});',
  '',
  "it('is zero for an empty cart', () => {",
  '  expect(total([])).toBe(0);',
  '});',
];

function diffOf(path: string, before: readonly string[], after: readonly string[]): string {
  const body = [...before.map((line) => `-${line}`), ...after.map((line) => `+${line}`)];
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -1,${before.length} +1,${after.length} @@`,
    ...body,
    '',
  ].join('\n');
}

/** The test file's second test deleted. */
const DELETED_TEST_DIFF = diffOf('src/cart.test.ts', SPEC_BEFORE, SPEC_BEFORE.slice(0, 7));

/** The test file's second test renamed, its body unchanged. */
const RENAMED_TEST_DIFF = diffOf(
  'src/cart.test.ts',
  SPEC_BEFORE,
  SPEC_BEFORE.map((line) => line.replace('is zero for an empty cart', 'returns zero for no items')),
);

/** Both tests emptied under their own names: nothing is tested any more. */
const HOLLOWED_TESTS_DIFF = diffOf(
  'src/cart.test.ts',
  SPEC_BEFORE,
  SPEC_BEFORE.filter((line) => !line.startsWith('  expect(')),
);

/** The test file's second test skipped. */
const SKIPPED_TEST_DIFF = diffOf(
  'src/cart.test.ts',
  SPEC_BEFORE,
  // Test sources as data: \u0073kip, \u006fnly and \u0078it spell skip, only and xit, so they read as no skipped test.
  SPEC_BEFORE.map((line) => line.replace("it('is zero", "it.\u0073kip('is zero")),
);

describe.each(dialects)('change analysis on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  function analyze(body: Record<string, unknown>, token: string | null = test.tokens.agent) {
    const headers = token === null ? {} : bearer(token);
    return test.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: body });
  }

  async function gatesOf(runId: string) {
    return (await test.store.read((tx) => tx.listGates({ runId }))).items;
  }

  it('answers findings and a verdict to a person without a run, opening nothing', async () => {
    const before = await snapshotState(test.store);
    const response = await analyze({ diff: DELETED_TEST_DIFF }, test.tokens.developer);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.facts).toMatchObject({ testsRemoved: 1, replacementTests: 0 });
    expect(body.findings).toContainEqual(
      expect.objectContaining({
        kind: 'test_removed',
        file: 'src/cart.test.ts',
        name: 'is zero for an empty cart',
      }),
    );
    expect(body.verdict.destructive).toMatchObject({
      triggered: true,
      rules: ['test_deletion'],
      autoApproved: null,
    });
    expect(body.gates).toEqual([]);
    expect(await snapshotState(test.store)).toBe(before);
  });

  it('opens a destructive_action gate with the findings when a run’s change deletes a test', async () => {
    const run = await createRunViaApi(test);
    const response = await analyze({
      runId: run.id,
      diff: DELETED_TEST_DIFF,
      action: { tool: 'Edit', args: { file_path: 'src/cart.test.ts' } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [gate] = response.json().gates;
    expect(gate).toMatchObject({
      type: 'destructive_action',
      status: 'pending',
      runId: run.id,
      minRole: 'tech_lead',
    });
    const stored = await test.store.read((tx) => tx.getGate(gate.id));
    expect(stored?.context).toMatchObject({
      actionType: 'test_deletion',
      testsRemoved: 1,
      triggerRules: ['test_deletion'],
      files: ['src/cart.test.ts'],
      findings: [expect.objectContaining({ kind: 'test_removed', name: 'is zero for an empty cart' })],
      auditContext: { gate: 'destructive_action', trigger: ['test_deletion'] },
    });
    expect(stored?.action).toMatchObject({ tool: 'Edit' });
    const recorded = await test.services.audit.query({ kind: 'analysis.recorded', subject: run.id });
    expect(recorded.items[0]?.data).toMatchObject({ gates: [gate.id], destructive: ['test_deletion'] });
  });

  it('lets a renamed test through as a test refactoring', async () => {
    const run = await createRunViaApi(test);
    const body = (await analyze({ runId: run.id, diff: RENAMED_TEST_DIFF })).json();
    expect(body.facts).toMatchObject({ testsRemoved: 1, replacementTests: 1 });
    expect(body.verdict.destructive).toMatchObject({
      triggered: false,
      autoApproved: 'legitimate_test_refactoring',
    });
    expect(body.gates).toEqual([]);
    expect(await gatesOf(run.id)).toEqual([]);
  });

  it('holds tests emptied under their own names for a person, with no coverage reports to say otherwise', async () => {
    const run = await createRunViaApi(test);
    const body = (await analyze({ runId: run.id, diff: HOLLOWED_TESTS_DIFF })).json();
    expect(body.facts).toMatchObject({ testsRemoved: 2, replacementTests: 0 });
    expect(body.verdict.destructive).toMatchObject({ triggered: true, autoApproved: null });
    expect(body.gates).toEqual([expect.objectContaining({ type: 'destructive_action' })]);
  });

  it('opens a destructive_action gate for a skip added', async () => {
    const run = await createRunViaApi(test);
    const body = (await analyze({ runId: run.id, diff: SKIPPED_TEST_DIFF })).json();
    expect(body.facts.skipPatternsAdded).toBe(1);
    expect(body.verdict.destructive).toMatchObject({ triggered: true, rules: ['test_skip'] });
    expect(body.gates).toEqual([expect.objectContaining({ type: 'destructive_action' })]);
  });

  it('holds a coverage drop of more than two points against the change, in summaries', async () => {
    const body = (
      await analyze({
        diff: RENAMED_TEST_DIFF,
        coverage: { before: { linePercent: 90 }, after: { linePercent: 85 } },
      })
    ).json();
    expect(body.facts.coverageDelta).toBe(-5);
    // The rename no longer passes as a refactoring: coverage dropped.
    expect(body.verdict.destructive).toMatchObject({ triggered: true, autoApproved: null });
    expect(body.verdict.destructive.rules).toContain('coverage_regression');
  });

  it('reads coverage reports and refuses one it cannot read, naming which', async () => {
    const lcov = (hits: number[]) =>
      `SF:src/cart.ts\n${hits.map((hit, index) => `DA:${index + 1},${hit}`).join('\n')}\nend_of_record\n`;
    const read = await analyze({
      diff: RENAMED_TEST_DIFF,
      coverage: { before: lcov([1, 1]), after: lcov([1, 0]) },
    });
    expect(read.json().facts.coverageDelta).toBe(-50);
    const bad = await analyze({
      diff: RENAMED_TEST_DIFF,
      coverage: { before: lcov([1]), after: 'not a report' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('coverage.after');
  });

  it.each([
    ['neither diff nor files', {}, 'diff'],
    [
      'both diff and files',
      { diff: DELETED_TEST_DIFF, files: [{ path: 'a.ts', before: '', after: '' }] },
      'diff',
    ],
    ['a file without a path', { files: [{ before: 'a', after: 'b' }] }, 'files.0.path'],
    ['a bad run id', { runId: 'nope', diff: DELETED_TEST_DIFF }, 'runId'],
    ['a field that could lower a gate', { diff: DELETED_TEST_DIFF, approvedByPm: true }, ''],
    [
      'coverage of two shapes',
      { diff: DELETED_TEST_DIFF, coverage: { before: 'x', after: { linePercent: 1 } } },
      'coverage',
    ],
    ['a diff that is not one', { diff: 'hello' }, 'diff'],
  ])('refuses %s with 400 naming the field, writing nothing', async (_name, body, field) => {
    const before = await snapshotState(test.store);
    const response = await analyze(body);
    expect(response.statusCode, response.body).toBe(400);
    const error = response.json().error;
    expect(error.code).toBe('VALIDATION_FAILED');
    if (field !== '') expect(JSON.stringify(error.details)).toContain(`"${field}`);
    expect(await snapshotState(test.store)).toBe(before);
  });

  it('refuses a diff past the size limit', async () => {
    const response = await analyze({ diff: 'x'.repeat(1_000_001) });
    expect([400, 413]).toContain(response.statusCode);
  });

  it('refuses a change of more lines than one analysis takes, naming the field, writing nothing', async () => {
    const run = await createRunViaApi(test);
    const before = await snapshotState(test.store);
    const half = 'x\n'.repeat(ANALYZE_LINES_MAX / 2);
    const response = await analyze({
      runId: run.id,
      files: [{ path: 'big.ts', before: half, after: `${half}y\n` }],
    });
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json().error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { field: 'files', limit: ANALYZE_LINES_MAX },
    });
    expect(await snapshotState(test.store)).toBe(before);
  });

  it('counts a diff by its own lines, not by the files rebuilt from its hunks', async () => {
    // One small hunk deep in a long file: rebuilt, the file holds the blank lines the diff leaves out.
    const start = ANALYZE_LINES_MAX + 10;
    const deep = [
      'diff --git a/src/deep.ts b/src/deep.ts',
      '--- a/src/deep.ts',
      '+++ b/src/deep.ts',
      `@@ -${start},1 +${start},2 @@`,
      ' const kept = 1;',
      '+const added = 2;',
      '',
    ].join('\n');
    const accepted = await analyze({ diff: deep });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const lines = Array.from({ length: ANALYZE_LINES_MAX }, (_, i) => `+const v${i} = ${i};`);
    const huge = [
      'diff --git a/src/huge.ts b/src/huge.ts',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/src/huge.ts',
      `@@ -0,0 +1,${lines.length} @@`,
      ...lines,
      '',
    ].join('\n');
    const refused = await analyze({ diff: huge });
    expect(refused.statusCode, refused.body).toBe(413);
    expect(refused.json().error.details).toMatchObject({ field: 'diff', limit: ANALYZE_LINES_MAX });
  });

  it('lets only the run’s own agent open gates in it', async () => {
    const run = await createRunViaApi(test);
    const before = await snapshotState(test.store);
    expect((await analyze({ diff: DELETED_TEST_DIFF }, null)).statusCode).toBe(401);
    const person = await analyze({ runId: run.id, diff: DELETED_TEST_DIFF }, test.tokens.admin);
    expect(person.statusCode).toBe(403);
    const other = await analyze({ runId: run.id, diff: DELETED_TEST_DIFF }, test.tokens.otherAgent);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('NOT_FOUND');
    expect(await snapshotState(test.store)).toBe(before);
  });
});
