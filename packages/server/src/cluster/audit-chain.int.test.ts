import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, loadFor, startCluster } from '../testing/cluster.js';
import { inPool, type Json } from '../testing/http-client.js';

describe('the audit chain written by three nodes at once', () => {
  let cluster: Cluster | null = null;
  afterEach(async () => {
    await cluster?.close();
    cluster = null;
  });

  it('stays one unbroken chain that every node verifies, with the nodes’ events interleaved', async () => {
    const live = await startCluster({ nodes: 3 });
    cluster = live;
    const gatesPerNode = loadFor(live, { server: 150, inProcess: 50 });
    await live.setPolicy();
    // One reviewer per node, so the actor of a decision says which node wrote it.
    const reviewers = await live.addPeople('auditor', ['developer', 'developer', 'developer']);

    // Each node opens gates and decides them as fast as it can, all three at the same time.
    const perNode = await Promise.all(
      live.nodes.map((node) =>
        inPool(
          Array.from({ length: gatesPerNode }, (_, i) => i),
          8,
          async (i) => {
            const body = { tool: 'deploy', args: { node: node.index, i } };
            const opened = await node.client.call('POST', '/v1/gates', { token: live.tokens.agent, body });
            expect(opened.status, JSON.stringify(opened.body)).toBe(200);
            const gateId: string = opened.body.gate.id;
            const reviewer = reviewers[node.index];
            const decided = await node.client.call('POST', `/v1/gates/${gateId}/decide`, {
              token: reviewer?.token ?? '',
              body: { option: i % 2 === 0 ? 'approve' : 'reject' },
            });
            expect(decided.status, JSON.stringify(decided.body)).toBe(200);
            return gateId;
          },
        ),
      ),
    );
    const gateIds = perNode.flat();
    expect(new Set(gateIds).size).toBe(3 * gatesPerNode);

    // Every node checks the whole chain and finds the same one.
    const verified = await Promise.all(
      live.nodes.map((node) => node.client.call('GET', '/v1/audit/verify', { token: live.tokens.admin })),
    );
    for (const answer of verified) expect(answer.body).toMatchObject({ ok: true });
    const [first] = verified.map((answer) => answer.body);
    for (const answer of verified) expect(answer.body).toEqual(first);

    // Gapless seqs; each gate opened once and decided once, by the reviewer of the node it was sent to.
    const events: Json[] = await live.client(0).all('/v1/audit?limit=500', live.tokens.admin);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => (events[0]?.seq ?? 1) + i));
    expect(first.count).toBe(events.length);
    for (const kind of ['gate.opened', 'gate.decided']) {
      const subjects = events.filter((event) => event.kind === kind).map((event) => event.subject);
      expect(subjects.sort(), kind).toEqual([...gateIds].sort());
    }
    const decisions = events.filter((event) => event.kind === 'gate.decided');
    perNode.forEach((ids, n) => {
      const actor = `user:${reviewers[n]?.id}`;
      const byNode = decisions.filter((event) => ids.includes(event.subject));
      expect(new Set(byNode.map((event) => event.actor)), `node ${n}`).toEqual(new Set([actor]));
    });
    // The nodes really wrote at the same time: the chain switches writer often (one in 20 at least).
    const switches = decisions.filter((event, i) => i > 0 && event.actor !== decisions[i - 1]?.actor).length;
    expect(switches).toBeGreaterThan(decisions.length / 20);

    // The rows themselves verify too, read straight from the database.
    expect(await live.postgres.store.verifyAuditChain()).toMatchObject({ ok: true, count: events.length });

    // Each node signs the head before its export, with the one shared key: every node verifies all the checkpoints.
    for (const node of live.nodes) {
      const exported = await node.client.call('GET', '/v1/audit/export', { token: live.tokens.admin });
      expect(exported.status).toBe(200);
    }
    const signed = await Promise.all(
      live.nodes.map((node) => node.client.call('GET', '/v1/audit/verify', { token: live.tokens.admin })),
    );
    for (const answer of signed)
      expect(answer.body).toMatchObject({ ok: true, checkpoints: expect.any(Number) });
    expect(signed[0]?.body.checkpoints).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
