import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_BEFORE } from '../testing/analysis-changes.js';
import { createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const SPEC = [
  "import { total } from './cart';\n",
  "it('adds the prices', () => {\n  expect(total([1, 2])).toBe(3);\n});\n",
  "it('is zero for an empty cart', () => {\n  expect(total([])).toBe(0);\n});\n",
  "it('ignores negative prices', () => {\n  expect(total([-1, 2])).toBe(2);\n});\n",
];
const CUT = [
  { path: 'src/cart.test.ts', before: SPEC.join(''), after: [SPEC[0], SPEC[1], SPEC[3]].join('') },
];
const PLACEHOLDER = (note: string) => [
  {
    path: 'src/cart.ts',
    before: CART_BEFORE,
    after: `// ${note}\nexport function total(prices: number[]): number {\n  throw new Error('not implemented');\n}\n`,
  },
];

interface GateBody {
  id: string;
  type: string;
  context: Record<string, unknown>;
}

describe.each(dialects)('findings with file, line and hunk on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(body: Record<string, unknown>): Promise<{ gates: GateBody[] }> {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function view(gateId: string) {
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(test.tokens.techLead),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { gate: GateBody; briefing: { summary: string; sections: unknown[] } };
  }

  it('gives each destructive finding its file, line and before/after hunk, and the diff the server holds', async () => {
    const run = await createRunViaApi(test);
    const [gate] = (await analyze({ runId: run.id, files: CUT })).gates;
    expect(gate?.type).toBe('destructive_action');
    const { gate: stored, briefing } = await view(gate?.id as string);
    expect(stored.context.findings).toEqual([
      expect.objectContaining({
        pattern: 'test.removed',
        file: 'src/cart.test.ts',
        line: 5,
        hunk: expect.stringContaining("-it('is zero for an empty cart', () => {"),
      }),
    ]);
    const [finding] = stored.context.findings as { hunk: string }[];
    expect(finding?.hunk.split('\n')[0]).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/);
    expect(finding?.hunk).toContain(" it('adds the prices', () => {".slice(0, 10));
    expect(stored.context.changes).toEqual([
      { path: 'src/cart.test.ts', diff: expect.stringContaining('-  expect(total([])).toBe(0);') },
    ]);
    expect(stored.context.coverageReported).toBe(false);
    expect(briefing.summary).toContain('no coverage sent');
    expect(briefing.summary).not.toMatch(/coverage [+-]?0%/);
    expect(JSON.stringify(briefing.sections)).toContain('src/cart.test.ts:5 test.removed');
  });

  it('leaves the diff to the agent when its action carries one', async () => {
    const run = await createRunViaApi(test);
    const diff = '--- a/src/cart.test.ts\n+++ b/src/cart.test.ts\n@@ -5,3 +5,0 @@\n-x\n';
    const action = { tool: 'Edit', args: { file_path: 'src/cart.test.ts', diff } };
    const [gate] = (await analyze({ runId: run.id, files: CUT, action })).gates;
    const { gate: stored } = await view(gate?.id as string);
    expect(stored.context.changes).toBeUndefined();
    expect((stored.context.findings as { hunk: string }[])[0]?.hunk).toContain('is zero');
  });

  it('gives a recovery escalation the hunk of the finding it is about', async () => {
    const run = await createRunViaApi(test);
    await analyze({ runId: run.id, files: PLACEHOLDER('one') });
    await analyze({ runId: run.id, files: PLACEHOLDER('two') });
    const [gate] = (await analyze({ runId: run.id, files: PLACEHOLDER('three') })).gates;
    expect(gate?.type).toBe('recovery_escalation');
    const { gate: stored, briefing } = await view(gate?.id as string);
    expect(stored.context).toMatchObject({
      files: ['src/cart.ts'],
      line: 2,
      hunk: expect.stringContaining("+  throw new Error('not implemented');"),
    });
    expect(stored.context.hunk).toContain('-  return prices.reduce((sum, p) => sum + p, 0);');
    expect(JSON.stringify(briefing.sections)).toContain('src/cart.ts:2 lazy.placeholder_body');
  });

  it('gives a low-confidence finding’s false-positive gate its hunk', async () => {
    const run = await createRunViaApi(test);
    const files = [
      {
        path: 'lib/cart.rb',
        before: 'def total(prices)\n  prices.sum\nend\n',
        after: 'def total(prices)\n  raise NotImplementedError\nend\n',
      },
    ];
    const [gate] = (await analyze({ runId: run.id, files })).gates;
    expect(gate?.type).toBe('false_positive_override');
    const { gate: stored } = await view(gate?.id as string);
    expect(stored.context).toMatchObject({
      files: ['lib/cart.rb'],
      line: 2,
      hunk: expect.stringContaining('+  raise NotImplementedError'),
    });
    expect(stored.context.hunk).toContain('-  prices.sum');
  });
});
