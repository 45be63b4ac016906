import type { Gate } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../testing/cluster.js';
import { type HttpResult, inPool, sleep } from '../testing/http-client.js';
import type { TestPerson } from '../testing/listening-app.js';

const OUTAGE_MS = 30_000;
/** Requests already on their way when the connection is cut may still finish; after this, none may. */
const CUT_GRACE_MS = 1_000;
/** How long a node may keep reporting ready after the cut (a readiness check may be cached briefly). */
const READY_GRACE_MS = 5_000;
const RECOVERY_LIMIT_MS = 30_000;
const PRELOADED = 150;
const WORKERS = 4;

interface Sent {
  kind: 'create' | 'decide' | 'read';
  node: number;
  gateId: string | null;
  /** The answer, or null when none came (connection refused, reset or timed out). */
  result: HttpResult | null;
  sentAt: number;
  /** When the answer (or the failure) came back: one sent just before the restore may be served after it. */
  answeredAt: number;
}

interface Load {
  sent: Sent[];
  stop(): Promise<void>;
}

/** Opens gates, decides the preloaded ones and reads them, round robin over the nodes, until stopped. */
function startLoad(cluster: Cluster, reviewer: TestPerson, preloaded: readonly string[]): Load {
  const sent: Sent[] = [];
  const toDecide = [...preloaded];
  const readable = [...preloaded];
  let stopped = false;
  let counter = 0;
  async function once(): Promise<void> {
    const i = counter++;
    const node = i % cluster.nodes.length;
    const client = cluster.client(node);
    const sentAt = Date.now();
    const answered = (kind: Sent['kind'], gateId: string | null) => (result: HttpResult | null) => {
      sent.push({ kind, node, gateId, result, sentAt, answeredAt: Date.now() });
      return result;
    };
    const call = { abortAfterMs: 5_000 };
    if (i % 3 === 0) {
      const body = { tool: 'deploy', args: { i } };
      const headers = { 'idempotency-key': `load-${i}` };
      await client
        .call('POST', '/v1/gates', { ...call, token: cluster.tokens.agent, headers, body })
        .catch(() => null)
        .then((result) => answered('create', result?.status === 200 ? result.body.gate.id : null)(result));
      return;
    }
    const gateId = i % 3 === 1 ? toDecide.shift() : undefined;
    if (gateId === undefined) {
      const read = readable[i % readable.length] as string;
      await client
        .call('GET', `/v1/gates/${read}`, { ...call, token: cluster.tokens.admin })
        .catch(() => null)
        .then(answered('read', read));
      return;
    }
    const result = await client
      .call('POST', `/v1/gates/${gateId}/decide`, {
        ...call,
        token: reviewer.token,
        body: { option: 'approve' },
      })
      .catch(() => null)
      .then(answered('decide', gateId));
    // Not decided (no answer, or refused for want of a database): try again later.
    if (result === null || result.status >= 500) toDecide.push(gateId);
  }
  const workers = Array.from({ length: WORKERS }, async () => {
    while (!stopped) {
      await once();
      await sleep(25);
    }
  });
  return {
    sent,
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

interface ReadyPoll {
  node: number;
  sentAt: number;
  answeredAt: number;
  status: number | null;
}

/** Asks every node's /readyz every 250 ms until stopped. */
function pollReadiness(cluster: Cluster): { polls: ReadyPoll[]; stop(): Promise<void> } {
  const polls: ReadyPoll[] = [];
  let stopped = false;
  const loops = cluster.nodes.map(async (node) => {
    while (!stopped) {
      const sentAt = Date.now();
      const answer = await node.client.call('GET', '/readyz', { abortAfterMs: 2_000 }).catch(() => null);
      polls.push({ node: node.index, sentAt, answeredAt: Date.now(), status: answer?.status ?? null });
      await sleep(250);
    }
  });
  return {
    polls,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** How long after `since` each node was ready again and took a write. */
async function untilServing(cluster: Cluster, since: number): Promise<number[]> {
  return Promise.all(
    cluster.nodes.map(async (node) => {
      for (let attempt = 0; Date.now() - since < RECOVERY_LIMIT_MS + 5_000; attempt++) {
        const ready = await node.client.call('GET', '/readyz', { abortAfterMs: 2_000 }).catch(() => null);
        const write =
          ready?.status === 200
            ? await node.client
                .call('POST', '/v1/gates', {
                  token: cluster.tokens.agent,
                  headers: { 'idempotency-key': `recovery-${node.index}-${attempt}` },
                  body: { tool: 'deploy', args: { recovery: node.index, attempt } },
                  abortAfterMs: 2_000,
                })
                .catch(() => null)
            : null;
        if (write?.status === 200) return Date.now() - since;
        await sleep(100);
      }
      return Number.POSITIVE_INFINITY;
    }),
  );
}

describe('Postgres unreachable for 30 s under three nodes', () => {
  let cluster: Cluster | null = null;
  afterEach(async () => {
    await cluster?.close();
    cluster = null;
  });

  it('answers 503 and not ready everywhere, decides nothing, serves again once it returns and loses no acknowledged write', async () => {
    const live = await startCluster({ nodes: 3, proxy: true });
    cluster = live;
    const proxy = live.proxy;
    if (proxy === null) throw new Error('the cluster has no proxy');
    await live.setPolicy();
    const [reviewer] = (await live.addPeople('outage', ['developer'])) as [TestPerson];
    const preloaded = await inPool(
      Array.from({ length: PRELOADED }, (_, i) => i),
      12,
      async (i) => {
        const body = { tool: 'deploy', args: { preloaded: i } };
        const answer = await live.client(i).call('POST', '/v1/gates', { token: live.tokens.agent, body });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return answer.body.gate.id as string;
      },
    );

    const load = startLoad(live, reviewer, preloaded);
    const readiness = pollReadiness(live);
    await sleep(2_000);
    const cutAt = Date.now();
    proxy.cut();
    await sleep(OUTAGE_MS);
    const restoredAt = Date.now();
    proxy.restore();
    const recovery = await untilServing(live, restoredAt);
    await sleep(1_000);
    await Promise.all([load.stop(), readiness.stop()]);

    // While it was gone: every node said not ready, and every request was refused with 503.
    const cut = (at: number, grace: number) => at > cutAt + grace && at < restoredAt;
    const answeredInCut = (grace: number) => (s: { sentAt: number; answeredAt: number }) =>
      cut(s.sentAt, grace) && s.answeredAt < restoredAt;
    const readyDuringCut = readiness.polls.filter(answeredInCut(READY_GRACE_MS));
    for (const node of live.nodes) {
      const polls = readyDuringCut.filter((poll) => poll.node === node.index);
      expect(polls.length, `node ${node.index} polls`).toBeGreaterThan(20);
      expect(new Set(polls.map((poll) => poll.status)), `node ${node.index} /readyz`).toEqual(new Set([503]));
    }
    const duringCut = load.sent.filter(answeredInCut(CUT_GRACE_MS));
    expect(duringCut.length).toBeGreaterThan(100);
    for (const kind of ['create', 'decide', 'read'] as const) {
      const statuses = new Set(duringCut.filter((s) => s.kind === kind).map((s) => s.result?.status ?? null));
      expect(statuses, `${kind} during the outage`).toEqual(new Set([503]));
    }

    // Back within 30 s on every node.
    expect(Math.max(...recovery), `recovery per node: ${recovery.join(', ')} ms`).toBeLessThan(
      RECOVERY_LIMIT_MS,
    );

    // Every acknowledged write is in the database; nothing was decided while it was unreachable.
    const store = live.postgres.store;
    const acknowledged = load.sent.filter((s) => s.result !== null && s.result.status === 200);
    const created = acknowledged.filter((s) => s.kind === 'create');
    const decided = acknowledged.filter((s) => s.kind === 'decide');
    expect(created.length).toBeGreaterThan(10);
    expect(decided.length).toBeGreaterThan(10);
    const stored = new Map<string, Gate>();
    for (const page of await Promise.all(
      [...new Set(acknowledged.map((s) => s.gateId as string))].map((id) =>
        store.read((tx) => tx.getGate(id)),
      ),
    ))
      if (page !== null) stored.set(page.id, page);
    for (const write of created)
      expect(stored.has(write.gateId as string), `created ${write.gateId}`).toBe(true);
    for (const write of decided) {
      expect(stored.get(write.gateId as string)?.decision, `decided ${write.gateId}`).toMatchObject({
        decidedBy: reviewer.id,
        option: 'approve',
      });
    }
    const all = await store.read((tx) => tx.listGates({ limit: 1000, status: 'approved' }));
    const decidedInOutage = all.items.filter((gate) => cut(gate.decision?.decidedAt ?? 0, CUT_GRACE_MS));
    expect(decidedInOutage).toEqual([]);
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true });
  }, 120_000);
});
