import type { Clock } from 'gatehouse-hitl-core';
import { evaluatePolicy } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResult } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

const EXISTS_4 =
  'args.xs.exists(a, args.xs.exists(b, args.xs.exists(c, args.xs.exists(d, a + b + c + d < 0))))';
const MAP_5 =
  'size(args.xs.map(a, args.xs.map(b, args.xs.map(c, args.xs.map(d, args.xs.map(e, a + b + c + d + e)))))) > 0';
// Within every static limit, but quadratic in the request's list: estimated far over the evaluation budget.
const QUADRATIC = 'args.xs.exists(a, args.xs.exists(b, a + b < 0))';
// Within every static limit and the evaluation estimate, but each of 90 000 elements keeps a
// 100-element list: about 75 MB, over the 48 MB heap the memory test gives its worker.
const LITERALS = `size(args.xs.map(a, [${Array.from({ length: 100 }, () => 'a').join(', ')}])) > 0`;
// A pattern whose compiled program is over the size limit: refused before it runs.
const LARGE_PATTERN = `args.s.matches("${'[^x]{1000}'.repeat(6)}")`;
// Within every static limit and the evaluation estimate (one comprehension, no search of a list, and
// contains is not charged), but each of 40 000 iterations scans a 200 000-character string: over a minute.
const SCANS = 'args.xs.exists(a, args.s.contains("ac"))';

// Any of these conditions evaluated on the server's main thread would hold /healthz for seconds to a
// minute; half a second tells that apart from a busy machine (two test workers share two cores).
const HEALTHZ_STALL_MS = 500;

function policy(condition: string, id = 'heavy'): string {
  return `name: budget
rules:
  - id: plain
    priority: 10
    match: { tools: [read_file] }
    action: allow
    reason: reads are safe
  - id: ${id}
    priority: 20
    condition: '${condition}'
    action: deny
    reason: too heavy on purpose
`;
}

describe.each(dialects)('policy budgets over HTTP on %s', (dialect) => {
  let node: ListeningApp<Clock>;
  beforeAll(async () => {
    node = await startListeningApp({ dialect });
    // The first request pays for the connection and route compilation; measure the server, not that.
    await node.client.call('GET', '/healthz');
  });
  afterAll(async () => {
    await node?.close();
  });

  /** Sends `request` and polls /healthz until it is answered; resolves with both. */
  async function withHealthz(request: () => Promise<HttpResult>, on: ListeningApp<Clock> = node) {
    let answered = false;
    const pending = request().finally(() => {
      answered = true;
    });
    const latencies: number[] = [];
    do {
      const started = performance.now();
      const health = await on.client.call('GET', '/healthz');
      latencies.push(performance.now() - started);
      expect(health.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } while (!answered);
    return { response: await pending, latencies };
  }

  function dryRun(source: string, args: Record<string, unknown>) {
    return node.client.call('POST', '/v1/policy/dry-run', {
      token: node.test.tokens.developer,
      body: { source, request: { tool: 'shell', args } },
    });
  }

  async function stillServes() {
    const health = await node.client.call('GET', '/healthz');
    expect(health.status).toBe(200);
    const plain = await dryRun(policy('args.xs.size() > 1'), { xs: [1, 2] });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ outcome: 'denied', ruleId: 'heavy' });
  }

  it.each([
    ['four nested exists over 100-element lists', EXISTS_4, 100],
    ['five nested maps over 60 elements', MAP_5, 60],
  ])('refuses a dry run of %s, naming the rule, while /healthz stays fast', async (_, condition, n) => {
    const { response, latencies } = await withHealthz(() => dryRun(policy(condition), { xs: range(n) }));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.message).toContain('rule "heavy" at index 1');
    expect(response.body.error.message).toContain('limit maxComprehensionDepth');
    expect(response.body.error.details.issues[0]).toMatchObject({
      ruleId: 'heavy',
      ruleIndex: 1,
      limit: 'maxComprehensionDepth',
      max: 2,
    });
    expect(Math.max(...latencies)).toBeLessThan(HEALTHZ_STALL_MS);
    await stillServes();
  });

  it.each([
    ['four nested exists', EXISTS_4, 'maxComprehensionDepth'],
    ['five nested maps', MAP_5, 'maxComprehensionDepth'],
    ['a regular expression too large to match quickly', LARGE_PATTERN, 'maxRegexProgramSize'],
  ])('refuses to save a policy with %s, naming the rule', async (_, condition, limit) => {
    const before = await node.client.call('GET', '/v1/policy', { token: node.test.tokens.admin });
    const response = await node.client.call('PUT', '/v1/policy', {
      token: node.test.tokens.admin,
      body: { source: policy(condition), format: 'yaml' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.message).toContain('rule "heavy" at index 1');
    expect(response.body.error.details.fields).toEqual([
      { field: 'rules[1].condition', message: expect.stringContaining(limit) },
    ]);
    const after = await node.client.call('GET', '/v1/policy', { token: node.test.tokens.admin });
    expect(after.body.version).toBe(before.body.version);
  });

  it('stops a dry run that is within every limit but slow at the time limit, naming the rule, while /healthz stays fast', async () => {
    const started = performance.now();
    const args = { xs: range(40_000), s: 'ab'.repeat(100_000) };
    const { response, latencies } = await withHealthz(() => dryRun(policy(SCANS, 'slow'), args));
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'POLICY_BUDGET_EXCEEDED',
      details: { ruleId: 'slow', ruleIndex: 1, limit: 'timeMs', max: 2000 },
    });
    expect(response.body.error.message).toContain('rule "slow"');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(Math.max(...latencies)).toBeLessThan(HEALTHZ_STALL_MS);
    await stillServes();
  });

  it('gates a dry run whose condition is estimated over the evaluation budget, as a real request would be', async () => {
    const { response, latencies } = await withHealthz(() =>
      dryRun(policy(QUADRATIC, 'slow'), { xs: range(10_000) }),
    );
    expect(response.status).toBe(200);
    expect(response.answeredAt - response.sentAt).toBeLessThan(1000);
    expect(response.body).toMatchObject({ outcome: 'gated', ruleId: 'slow' });
    expect(response.body.decision.errors).toEqual([
      { ruleId: 'slow', message: expect.stringContaining('evaluation budget') },
    ]);
    expect(Math.max(...latencies)).toBeLessThan(HEALTHZ_STALL_MS);
  });

  it('decides a dry run of the active policy in the worker exactly as the gate path does in-process', async () => {
    const requests = [
      { tool: 'shell', args: { command: 'rm -rf /srv/data' } },
      { tool: 'read_file', args: { path: 'src/index.ts' } },
      { tool: 'write_file', args: { path: '.env', content: 'x' } },
      { operation: 'deploy to production', risk: 'high' as const },
    ];
    for (const request of requests) {
      const response = await node.client.call('POST', '/v1/policy/dry-run', {
        token: node.test.tokens.developer,
        body: { request },
      });
      expect(response.status).toBe(200);
      const event = request.tool === undefined ? 'operation' : 'tool_call';
      const direct = evaluatePolicy(node.test.services.policies.current(), {
        ...request,
        event,
        args: request.args ?? {},
        agent: { id: 'dry-run' },
      });
      expect(response.body.decision).toEqual(JSON.parse(JSON.stringify(direct)));
    }
  });

  it('stops a dry run that needs more memory than its worker has, and keeps serving', async () => {
    // A small heap and a generous time budget, so the heap limit is what stops it.
    const config = { dryRunTimeoutMs: 30_000, dryRunMemoryMb: 48 };
    const hungry = await startListeningApp({ dialect, config });
    try {
      const small = (condition: string, args: unknown) =>
        hungry.client.call('POST', '/v1/policy/dry-run', {
          token: hungry.test.tokens.developer,
          body: { source: policy(condition, 'hungry'), request: { tool: 'shell', args } },
        });
      // Start the worker first, so what is measured is the server while a worker runs out of memory.
      expect((await small(LITERALS, { xs: [1] })).status).toBe(200);
      const args = { xs: new Array(90_000).fill(0) };
      const { response, latencies } = await withHealthz(() => small(LITERALS, args), hungry);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('POLICY_BUDGET_EXCEEDED');
      expect(response.body.error.details).toMatchObject({ ruleId: 'hungry', limit: 'memoryMb', max: 48 });
      // Collection near the worker's heap limit also runs on V8 helper threads the whole process
      // shares, so a loaded machine sees some delay here; the loop itself is never blocked.
      expect(Math.max(...latencies)).toBeLessThan(250);
      const after = await small('args.xs.size() > 1', { xs: [1, 2] });
      expect(after.body).toMatchObject({ outcome: 'denied', ruleId: 'hungry' });
    } finally {
      await hungry.close();
    }
  }, 60_000);
});
