import type { Clock } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

// Within every static limit; quadratic in the request's list, so an agent controls how long it runs.
const POLICY = `name: pairs
rules:
  - id: reads
    priority: 10
    match: { tools: [read_file] }
    action: allow
    reason: reads are safe
  - id: pairs
    priority: 20
    condition: 'args.xs.exists(a, args.xs.exists(b, a + b < 0))'
    action: deny
    reason: no negative pairs
`;

describe.each(dialects)('the evaluation budget on the gate path on %s', (dialect) => {
  let node: ListeningApp<Clock>;
  beforeAll(async () => {
    node = await startListeningApp({ dialect });
    const saved = await node.client.call('PUT', '/v1/policy', {
      token: node.test.tokens.admin,
      body: { source: POLICY },
    });
    expect(saved.status).toBe(200);
    await node.client.call('GET', '/healthz');
  });
  afterAll(async () => {
    await node?.close();
  });

  function requestGate(xs: number[]) {
    return node.client.call('POST', '/v1/gates', {
      token: node.test.tokens.agent,
      body: { tool: 'shell', args: { xs } },
    });
  }

  it('evaluates a comprehension over a small list as written', async () => {
    const response = await requestGate([1, -2, 3]);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ outcome: 'denied', ruleId: 'pairs' });
  });

  it('gates instead of running a condition whose estimated cost for this request is over the budget', async () => {
    let answered = false;
    const pending = requestGate(range(5000)).finally(() => {
      answered = true;
    });
    const latencies: number[] = [];
    do {
      const started = performance.now();
      expect((await node.client.call('GET', '/healthz')).status).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } while (!answered);
    const response = await pending;
    expect(response.answeredAt - response.sentAt).toBeLessThan(1000);
    // Running the condition would take seconds (5,000² steps); the bound leaves room for a loaded machine.
    expect(Math.max(...latencies)).toBeLessThan(500);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ outcome: 'gated', ruleId: 'pairs' });
    expect(response.body.reason).toContain('evaluation budget');
  });
});
