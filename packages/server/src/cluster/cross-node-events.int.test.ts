import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, type ClusterNode, startCluster } from '../testing/cluster.js';
import type { HttpClient } from '../testing/http-client.js';
import { approvePlanOverHttp } from '../testing/runs.js';
import { openEventStream, type TestEventStream, type TestSseMessage } from '../testing/sse-client.js';

// The backstop poll never fires during these tests: whatever crosses nodes came by NOTIFY or by the
// catch-up a reconnecting listener does.
const NO_POLL = { GATEHOUSE_EVENTS_POLL_MS: '600000' };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openGate(
  client: HttpClient,
  token: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const opened = await client.call('POST', '/v1/gates', {
    token,
    body: { tool: 'deploy', args: { to: 'production' }, timeoutSeconds: 3600, ...body },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  expect(opened.body.outcome).toBe('gated');
  return opened.body.gateId;
}

/** The next `count` messages of `type`, in the order the stream delivered them. */
async function take(stream: TestEventStream, type: string, count: number): Promise<TestSseMessage[]> {
  const messages: TestSseMessage[] = [];
  while (messages.length < count) messages.push(await stream.next((m) => m.event === type, 15_000));
  return messages;
}

function listenerOf(node: ClusterNode): string {
  const pid = node.process?.pid;
  if (pid === undefined) throw new Error(`node ${node.index} is not running`);
  return `gatehouse-listener ${pid} `;
}

describe('events across three nodes on one Postgres', () => {
  let cluster: Cluster | null = null;
  const streams: TestEventStream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await cluster?.close();
    cluster = null;
  });

  it('wakes an agent streaming from node B and one long-polling on node C when a person decides on node A', async () => {
    cluster = await startCluster({ nodes: 3, env: NO_POLL });
    const [a, b, c] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
    const { agent } = cluster.tokens;
    const [reviewer] = await cluster.addPeople('reviewer', ['developer']);

    const created = await c.client.call('POST', '/v1/runs', { token: agent, body: {} });
    expect(created.status).toBe(201);
    const runId: string = created.body.run.id;
    // Gate 0: the run's plan is approved before it asks to deploy.
    await approvePlanOverHttp(c.client, runId, { agent, person: reviewer?.token ?? '' });
    const stream = await openEventStream(`${b.url}/v1/runs/${runId}/events`, bearer(agent));
    streams.push(stream);
    expect(stream.status).toBe(200);

    const gateId = await openGate(c.client, agent, { runId });
    await stream.next((m) => m.event === 'gate.opened' && m.json.gateId === gateId, 5000);
    const waiting = c.client.call('GET', `/v1/gates/${gateId}/wait?timeoutMs=30000`, { token: agent });
    let answered = false;
    void waiting.then(() => {
      answered = true;
    });
    await sleep(500);
    expect(answered).toBe(false);

    const decidedAt = Date.now();
    const decided = await a.client.call('POST', `/v1/gates/${gateId}/decide`, {
      token: reviewer?.token ?? '',
      body: { option: 'approve', reason: 'looks right' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const [woken, event] = await Promise.all([
      waiting,
      stream.next((m) => m.event === 'gate.decided' && m.json.gateId === gateId, 5000),
    ]);
    expect(woken.status).toBe(200);
    expect(woken.body.outcome).toBe('approved');
    expect(woken.body.gate.status).toBe('approved');
    expect(woken.answeredAt - decidedAt).toBeLessThan(1000);

    const stored = await cluster.postgres.store.listStreamEvents({ afterSeq: 0, runId });
    const decision = stored.find((each) => each.type === 'gate.decided' && each.gateId === gateId);
    expect(event.id).toBe(String(decision?.seq));
  }, 120_000);

  it("loses no event when a node's listener connection is killed mid-run", async () => {
    cluster = await startCluster({ nodes: 3, env: NO_POLL });
    const [a, b, c] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
    const { agent } = cluster.tokens;
    const [watcher] = await cluster.addPeople('watcher', ['viewer']);
    const stream = await openEventStream(`${b.url}/v1/inbox/events`, bearer(watcher?.token ?? ''));
    streams.push(stream);
    expect(stream.status).toBe(200);

    const total = 120;
    const opened: string[] = [];
    const kills: number[] = [];
    const writers = [a.client, c.client, a.client, c.client].map(async (client) => {
      while (opened.length < total) {
        opened.push(await openGate(client, agent, { args: { n: opened.length } }));
      }
    });
    // Kill node B's listener twice while the writers run; the second waits for the reconnect.
    const killer = (async () => {
      for (const at of [30, 75]) {
        while (opened.length < at) await sleep(2);
        let dropped = 0;
        for (let tries = 0; dropped === 0 && tries < 500; tries++) {
          dropped = await cluster.postgres.terminateConnections(listenerOf(b));
          if (dropped === 0) await sleep(10);
        }
        kills.push(dropped);
      }
    })();
    await Promise.all([...writers, killer]);
    expect(kills).toEqual([1, 1]);

    const seen = await take(stream, 'gate.opened', opened.length);
    const seqs = seen.map((message) => Number(message.id));
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(new Set(seen.map((message) => message.json.gateId))).toEqual(new Set(opened));
    await expect(stream.next((m) => m.event === 'gate.opened', 300)).rejects.toThrow(/no matching event/);

    const stored = await cluster.postgres.store.listStreamEvents({ afterSeq: 0, limit: 1000 });
    expect(stored.filter((event) => event.type === 'gate.opened').map((event) => event.seq)).toEqual(seqs);
    expect((await b.client.call('GET', '/readyz')).status).toBe(200);
  }, 120_000);
});
