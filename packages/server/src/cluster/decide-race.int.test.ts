import type { Role } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, loadFor, startCluster } from '../testing/cluster.js';
import { expectOneWinnerEach, expectRacedAcrossNodes, type NodeRaceAttempt } from '../testing/decide-race.js';
import { inPool, type Json, shuffled } from '../testing/http-client.js';
import type { TestPerson } from '../testing/listening-app.js';

const NODES = 3;
const REVIEWERS = 8;
const ROLES: Role[] = ['developer', 'tech_lead'];

describe('1,000 gates (200 in-process) × 8 reviewers on three nodes racing to decide', () => {
  let cluster: Cluster | null = null;
  afterEach(async () => {
    await cluster?.close();
    cluster = null;
  });

  it('gives each gate exactly one winner; the other seven get 409 naming it, whichever node they asked', async () => {
    const live = await startCluster({ nodes: NODES, maxSockets: 64 });
    cluster = live;
    const gateCount = loadFor(live, { server: 1000, inProcess: 200 });
    await live.setPolicy();
    const reviewers = await live.addPeople(
      'racer',
      Array.from({ length: REVIEWERS }, (_, i) => ROLES[i % 2] as Role),
    );
    const attempt = async (
      reviewer: TestPerson,
      node: number,
      gateId: string,
      i: number,
    ): Promise<NodeRaceAttempt> => {
      const option = i % 2 === 0 ? 'approve' : 'reject';
      const result = await live.client(node).call('POST', `/v1/gates/${gateId}/decide`, {
        token: reviewer.token,
        body: { option, reason: `by ${reviewer.id} on node ${node}` },
      });
      return { reviewer, node, option, result };
    };

    // The race's gates, then one gate per node that the node decides first.
    const opened = await inPool(
      Array.from({ length: gateCount + NODES }, (_, i) => i),
      24,
      (i) =>
        live
          .client(i)
          .call('POST', '/v1/gates', { token: live.tokens.agent, body: { tool: 'build', args: { i } } }),
    );
    const allIds: string[] = opened.map((answer) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.gate.id;
    });
    expect(new Set(allIds).size).toBe(gateCount + NODES);
    const gateIds = allIds.slice(0, gateCount);
    const headStartIds = allIds.slice(gateCount);

    // 8 gates at a time, each raced by all 8 reviewers at once, reviewer r asking node (r + gate) % 3.
    const races = await inPool(gateIds, REVIEWERS, (gateId, g) =>
      Promise.all(
        shuffled(reviewers).map((reviewer, i) =>
          attempt(reviewer, (reviewers.indexOf(reviewer) + g) % NODES, gateId, i),
        ),
      ),
    );
    const raceWinners = expectOneWinnerEach(races, gateIds);
    expectRacedAcrossNodes(races, gateIds, raceWinners, NODES);
    expect(new Set([...raceWinners.values()].map((w) => w.reviewer.id)).size).toBeGreaterThan(1);

    // Every node can win: reviewer n decides gate n through node n, then the other seven try on every node.
    const headStarts: NodeRaceAttempt[][] = [];
    for (const [n, gateId] of headStartIds.entries()) {
      const first = await attempt(reviewers[n] as TestPerson, n, gateId, 0);
      const others = reviewers.filter((_, r) => r !== n);
      const rest = await Promise.all(
        others.map((reviewer, i) => attempt(reviewer, (n + 1 + i) % NODES, gateId, i)),
      );
      headStarts.push([first, ...rest]);
    }
    const leaders = expectOneWinnerEach(headStarts, headStartIds);
    expect(headStartIds.map((gateId) => leaders.get(gateId)?.node)).toEqual([0, 1, 2]);
    const winners = new Map([...raceWinners, ...leaders]);
    const total = gateCount + NODES;

    // Every node reads the same outcome; the audit trail has one decision per gate, by the winner.
    for (const [n, node] of live.nodes.entries()) {
      const stored: Json[] = await node.client.all('/v1/gates?limit=500', live.tokens.admin);
      expect(stored, `node ${n}`).toHaveLength(total);
      for (const gate of stored) {
        const winner = winners.get(gate.id) as NodeRaceAttempt;
        expect(gate.status).toBe(winner.option === 'approve' ? 'approved' : 'rejected');
        expect(gate.decision).toMatchObject({ decidedBy: winner.reviewer.id, option: winner.option });
      }
    }
    const decided = await live.client(1).all('/v1/audit?kind=gate.decided&limit=500', live.tokens.admin);
    expect(decided).toHaveLength(total);
    expect(new Set(decided.map((e: Json) => e.subject)).size).toBe(total);
    for (const event of decided) {
      expect(event.actor).toBe(`user:${(winners.get(event.subject) as NodeRaceAttempt).reviewer.id}`);
    }
    const verify = await live.client(2).call('GET', '/v1/audit/verify', { token: live.tokens.admin });
    expect(verify.body).toMatchObject({ ok: true });
  }, 240_000);
});
