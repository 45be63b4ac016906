import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const SPEC = [
  "it('adds the prices', () => {\n  expect(total([1, 2])).toBe(3);\n});\n",
  "it('is zero for an empty cart', () => {\n  expect(total([])).toBe(0);\n});\n",
  "it('ignores negative prices', () => {\n  expect(total([-1, 2])).toBe(2);\n});\n",
];

/** The cart spec without the tests at `removed`. */
function specCut(...removed: number[]) {
  const after = SPEC.filter((_, i) => !removed.includes(i)).join('\n');
  return [{ path: 'src/cart.test.ts', before: SPEC.join('\n'), after }];
}

interface Gate {
  id: string;
  type: string;
  status: string;
  context: Record<string, unknown> & { repeats?: { count: number; latest: { action: unknown } } };
}

describe.each(dialects)('repeated destructive findings in a run on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function analyze(runId: string, removed: number[], push: string): Promise<{ gates: Gate[] }> {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: { runId, files: specCut(...removed), action: { tool: 'git_push', args: { to: push } } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function destructiveGates(runId: string): Promise<Gate[]> {
    const page = await test.store.read((tx) => tx.listGates({ runId, type: 'destructive_action' }));
    return page.items as unknown as Gate[];
  }

  it('counts the same deleted test on the open gate instead of opening a second', async () => {
    const run = await createRunViaApi(test);
    const first = await analyze(run.id, [1], 'c1');
    const [gate] = first.gates;
    expect(gate).toMatchObject({ type: 'destructive_action', status: 'pending' });
    expect(gate?.context.repeats).toBeUndefined();

    const second = await analyze(run.id, [1], 'c2');
    const third = await analyze(run.id, [1], 'c3');
    expect(second.gates.map((g) => g.id)).toEqual([gate?.id]);
    expect(third.gates.map((g) => g.id)).toEqual([gate?.id]);

    const [stored, ...others] = await destructiveGates(run.id);
    expect(others).toEqual([]);
    expect(stored?.context.repeats).toMatchObject({
      count: 2,
      latest: { action: { tool: 'git_push', args: { to: 'c3' } }, facts: { testsRemoved: 1 } },
    });
    const audited = await test.services.audit.query({
      kind: 'analysis.destructive_repeated',
      subject: gate?.id as string,
    });
    expect(audited.items.map((event) => event.data)).toEqual([
      expect.objectContaining({ runId: run.id, count: 1, findings: [expect.stringContaining('is zero')] }),
      expect.objectContaining({ runId: run.id, count: 2, action: { tool: 'git_push', args: { to: 'c3' } } }),
    ]);
  });

  it('opens a new gate for a deleted test the open gate does not cover', async () => {
    const run = await createRunViaApi(test);
    const [first] = (await analyze(run.id, [1], 'c1')).gates;
    // Deleting a second test as well: the open gate does not hold that one, so a person sees it anew.
    const [wider] = (await analyze(run.id, [1, 2], 'c2')).gates;
    expect(wider?.id).not.toBe(first?.id);
    // Each deletion alone is now covered, by one gate or the other.
    const [again] = (await analyze(run.id, [2], 'c3')).gates;
    expect(again?.id).toBe(wider?.id);
    expect(await destructiveGates(run.id)).toHaveLength(2);
  });

  it('opens a new gate once the covering gate has been decided', async () => {
    const run = await createRunViaApi(test);
    const [first] = (await analyze(run.id, [0], 'c1')).gates;
    const decided = await decideTestGate(test, test.tokens.techLead, first?.id as string, {
      option: 'reject',
      reason: 'fix the test instead',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const [next] = (await analyze(run.id, [0], 'c2')).gates;
    expect(next?.id).not.toBe(first?.id);
    expect(next?.context.repeats).toBeUndefined();
  });

  it('keeps gates of different runs apart', async () => {
    const one = await createRunViaApi(test);
    const two = await createRunViaApi(test);
    const [a] = (await analyze(one.id, [1], 'c1')).gates;
    const [b] = (await analyze(two.id, [1], 'c1')).gates;
    expect(b?.id).not.toBe(a?.id);
  });
});

describe('repeated destructive findings on two nodes of one Postgres', () => {
  let test: TestApp<{ now(): number }>;
  let other: FastifyInstance;

  beforeAll(async () => {
    test = await createTestApp({ dialect: 'postgres' });
    other = await test.secondNode();
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  function analyze(node: FastifyInstance, runId: string, push: string) {
    return node.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: bearer(test.tokens.agent),
      payload: { runId, files: specCut(2), action: { tool: 'git_push', args: { to: push } } },
    });
  }

  it('opens one gate when both nodes analyse the same deletion at once', async () => {
    // Several runs, so a race that slips through only now and then still shows.
    for (let round = 0; round < 8; round++) {
      const run = await createRunViaApi(test);
      const answers = await Promise.all([analyze(test.app, run.id, 'a'), analyze(other, run.id, 'b')]);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      const page = await test.store.read((tx) => tx.listGates({ runId: run.id, type: 'destructive_action' }));
      const gates = page.items as unknown as Gate[];
      expect(gates, `round ${round}`).toHaveLength(1);
      expect(gates[0]?.context.repeats?.count).toBe(1);
      expect(answers.map((answer) => answer.json().gates.map((gate: Gate) => gate.id))).toEqual([
        [gates[0]?.id],
        [gates[0]?.id],
      ]);
    }
  });
});
