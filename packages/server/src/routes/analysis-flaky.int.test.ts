import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const CART =
  'export function total(prices: number[]): number {\n  return prices.reduce((s, p) => s + p, 0);\n}\n';
const PLACEHOLDER =
  "export function total(prices: number[]): number {\n  throw new Error('not implemented');\n}\n";
const cart = (after: string) => [{ path: 'src/cart.ts', before: CART, after }];

const SPEC =
  "import { total } from './cart';\n\nit('adds tax', () => {\n  expect(total([100])).toBe(110);\n});\n\nit('is zero when empty', () => {\n  expect(total([])).toBe(0);\n});\n";
/** The spec with its first test commented out: a laziness finding in the spec's own file. */
const SPEC_COMMENTED = SPEC.replace(
  "it('adds tax', () => {\n  expect(total([100])).toBe(110);\n});",
  "// it('adds tax', () => {\n//   expect(total([100])).toBe(110);\n// });",
);
const spec = (after = SPEC_COMMENTED) => [{ path: 'src/cart.test.ts', before: SPEC, after }];
const other = [{ path: 'src/other.ts', before: 'export const a = 1;\n', after: 'export const a = 2;\n' }];

interface Gate {
  type: string;
  context: Record<string, unknown>;
}

/** The commented-out test is a removed test too; these tests look at the recovery's gates only. */
const escalations = (answer: { gates: Gate[] }) =>
  answer.gates.filter((gate) => gate.type === 'recovery_escalation');

describe.each(dialects)('flaky failures escalate a recovery on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(body: Record<string, unknown>): Promise<{ gates: Gate[] }> {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function recovery(runId: string) {
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/runs/${runId}/recoveries`,
      headers: bearer(test.tokens.agent),
    });
    return (response.json() as { recoveries: Record<string, unknown>[] }).recoveries[0];
  }

  it('escalates a finding that comes back with its file exactly as when it was last found', async () => {
    const run = await createRunViaApi(test);
    expect((await analyze({ runId: run.id, files: cart(PLACEHOLDER) })).gates).toEqual([]);
    expect((await analyze({ runId: run.id, files: cart(`// fixed\n${CART}`) })).gates).toEqual([]);
    const back = await analyze({ runId: run.id, files: cart(PLACEHOLDER) });
    expect(back.gates).toEqual([
      expect.objectContaining({
        type: 'recovery_escalation',
        context: expect.objectContaining({
          triggerRules: ['non_deterministic_failure'],
          nonDeterministicFailure: true,
          recoveryAttempts: 1,
        }),
      }),
    ]);
    expect(await recovery(run.id)).toMatchObject({
      status: 'escalated',
      escalatedBy: ['non_deterministic_failure'],
    });
  });

  it('counts a finding written anew after a fix as a new attempt, not a flaky one', async () => {
    const run = await createRunViaApi(test);
    await analyze({ runId: run.id, files: cart(PLACEHOLDER) });
    await analyze({ runId: run.id, files: cart(`// fixed\n${CART}`) });
    const back = await analyze({ runId: run.id, files: cart(`// again\n${PLACEHOLDER}`) });
    expect(back.gates).toEqual([]);
    expect(await recovery(run.id)).toMatchObject({ status: 'recovering', attempts: 1 });
  });

  it('escalates a test whose reported results alternate while its file stays the same', async () => {
    const run = await createRunViaApi(test);
    const result = (outcome: string) => [{ name: 'is zero when empty', file: 'src/cart.test.ts', outcome }];
    const first = await analyze({ runId: run.id, files: spec(), tests: result('pass') });
    expect(escalations(first)).toEqual([]);
    expect(escalations(await analyze({ runId: run.id, files: other, tests: result('fail') }))).toEqual([]);
    const flaky = await analyze({ runId: run.id, files: other, tests: result('pass') });
    expect(escalations(flaky)).toEqual([
      expect.objectContaining({
        type: 'recovery_escalation',
        context: expect.objectContaining({
          pattern: 'lazy.test_commented_out',
          triggerRules: ['non_deterministic_failure'],
          nonDeterministicFailure: true,
          message: expect.stringContaining('"is zero when empty" passed and failed in turn'),
        }),
      }),
    ]);
    expect(await recovery(run.id)).toMatchObject({ status: 'escalated', attempts: 1 });
  });

  it('starts a test’s results afresh when its file changes, and never resolves a recovery from them', async () => {
    const run = await createRunViaApi(test);
    const result = (outcome: string) => [{ name: 'is zero when empty', file: 'src/cart.test.ts', outcome }];
    await analyze({ runId: run.id, files: spec(), tests: result('pass') });
    await analyze({ runId: run.id, files: other, tests: result('fail') });
    // The spec changed (the finding is still there): pass after fail is no alternation of one text.
    const changed = await analyze({
      runId: run.id,
      files: spec(`${SPEC_COMMENTED}\n`),
      tests: result('pass'),
    });
    expect(escalations(changed)).toEqual([]);
    const passing = await analyze({ runId: run.id, files: other, tests: result('pass') });
    expect(escalations(passing)).toEqual([]);
    expect(await recovery(run.id)).toMatchObject({ status: 'recovering', attempts: 2 });
  });

  it('refuses a malformed test result naming the field', async () => {
    const run = await createRunViaApi(test);
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: { runId: run.id, files: other, tests: [{ name: 'x', outcome: 'flaky' }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('tests');
  });
});
