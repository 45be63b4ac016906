import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { type HttpResult, inPool, type Json, sleep } from '../testing/http-client.js';
import {
  addTestAgents,
  type ListeningApp,
  startListeningApp,
  type TestAgent,
} from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const AGENTS = 1000;
const dialects: TestDialect[] = ['sqlite', 'postgres'];

type Retry =
  | 'one after another'
  | 'all at once'
  | 'first, then two at once'
  | 'answer lost, then two at once';
const RETRIES: Retry[] = [
  'one after another',
  'all at once',
  'first, then two at once',
  'answer lost, then two at once',
];

describe.each(dialects)('1,000 agents retrying their creates on %s', (dialect) => {
  let live: ListeningApp<{ now(): number }> | null = null;
  afterEach(async () => {
    await live?.close();
    live = null;
  });

  it('opens exactly 1,000 gates; every retry with the same Idempotency-Key gets the same gate', async () => {
    live = await startListeningApp({ dialect }, { maxSockets: 64 });
    const { test, client } = live;
    await useTestPolicy(test);
    const agents = await addTestAgents(test, 'retrier', AGENTS);

    const create = (agent: TestAgent, i: number, abortAfterMs?: number): Promise<HttpResult | null> =>
      client
        .call('POST', '/v1/gates', {
          token: agent.token,
          headers: { 'idempotency-key': `step-1-of-${agent.id}` },
          body: { tool: 'publish', args: { package: `pkg-${i}`, version: '1.0.0' } },
          ...(abortAfterMs === undefined ? {} : { abortAfterMs }),
        })
        // A lost answer: the request may or may not have reached the server.
        .catch(() => null);

    const attempts = await inPool(agents, 32, async (agent, i): Promise<(HttpResult | null)[]> => {
      switch (RETRIES[i % RETRIES.length] as Retry) {
        case 'one after another':
          return [await create(agent, i), await create(agent, i), await create(agent, i)];
        case 'all at once':
          return Promise.all([create(agent, i), create(agent, i), create(agent, i)]);
        case 'first, then two at once':
          return [await create(agent, i), ...(await Promise.all([create(agent, i), create(agent, i)]))];
        case 'answer lost, then two at once': {
          const lost = await create(agent, i, 0);
          await sleep(1);
          return [lost, ...(await Promise.all([create(agent, i), create(agent, i)]))];
        }
      }
    });

    const gateOf = new Map<string, string>();
    attempts.forEach((results, i) => {
      const agent = agents[i] as TestAgent;
      const answered = results.filter((r): r is HttpResult => r !== null);
      expect(answered.length).toBeGreaterThanOrEqual(2);
      for (const result of answered) {
        expect(result.status, JSON.stringify(result.body)).toBe(200);
        expect(result.body.outcome).toBe('gated');
      }
      const ids = new Set(answered.map((r) => r.body.gateId));
      expect(ids.size, `${agent.id} got ${[...ids].join(', ')}`).toBe(1);
      gateOf.set(agent.id, answered[0]?.body.gateId);
    });

    const gates: Json[] = await client.all('/v1/gates?limit=500', test.tokens.viewer);
    expect(gates).toHaveLength(AGENTS);
    expect(new Set(gates.map((g) => g.id)).size).toBe(AGENTS);
    for (const gate of gates) expect(gateOf.get(gate.agentId)).toBe(gate.id);
    expect(await test.store.read((tx) => tx.countGates({}))).toBe(AGENTS);
    const opened: Json[] = await client.all('/v1/audit?kind=gate.opened&limit=500', test.tokens.viewer);
    expect(opened).toHaveLength(AGENTS);

    // The same key with another body is refused and writes nothing.
    const agent = agents[0] as TestAgent;
    const reused = await client.call('POST', '/v1/gates', {
      token: agent.token,
      headers: { 'idempotency-key': `step-1-of-${agent.id}` },
      body: { tool: 'publish', args: { package: 'something-else' } },
    });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(await test.store.read((tx) => tx.countGates({}))).toBe(AGENTS);

    const verify = await client.call('GET', '/v1/audit/verify', { token: test.tokens.viewer });
    expect(verify.body).toMatchObject({ ok: true });
  }, 90_000);
});
