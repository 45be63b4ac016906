import type { Role } from '@gatehouse/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, loadFor, startCluster } from '../testing/cluster.js';
import { expectOneWinnerEach, type RaceAttempt } from '../testing/decide-race.js';
import { type HttpResult, inPool, type Json, shuffled } from '../testing/http-client.js';
import type { TestPerson } from '../testing/listening-app.js';

const REVIEWERS = 8;
const ROLES: Role[] = ['developer', 'tech_lead'];

interface Attempt extends RaceAttempt {
  node: number;
}

describe('1,000 gates (200 in-process) × 8 reviewers on three nodes racing to decide', () => {
  let cluster: Cluster | null = null;
  afterEach(async () => {
    await cluster?.close();
    cluster = null;
  });

  it('gives each gate exactly one winner; the other seven get 409 naming it, whichever node they asked', async () => {
    const live = await startCluster({ nodes: 3, maxSockets: 64 });
    cluster = live;
    const gateCount = loadFor(live, { server: 1000, inProcess: 200 });
    await live.setPolicy();
    const reviewers = await live.addPeople(
      'racer',
      Array.from({ length: REVIEWERS }, (_, i) => ROLES[i % 2] as Role),
    );

    const opened = await inPool(
      Array.from({ length: gateCount }, (_, i) => i),
      24,
      (i) =>
        live
          .client(i)
          .call('POST', '/v1/gates', { token: live.tokens.agent, body: { tool: 'build', args: { i } } }),
    );
    const gateIds: string[] = opened.map((answer) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.gate.id;
    });
    expect(new Set(gateIds).size).toBe(gateCount);

    // 8 gates at a time, each raced by all 8 reviewers at once, reviewer r asking node (r + gate) % 3.
    const races = await inPool(gateIds, REVIEWERS, (gateId, g) =>
      Promise.all(
        shuffled(reviewers).map(async (reviewer, i): Promise<Attempt> => {
          const node = (reviewers.indexOf(reviewer) + g) % 3;
          const option = i % 2 === 0 ? 'approve' : 'reject';
          const result = await live.client(node).call('POST', `/v1/gates/${gateId}/decide`, {
            token: reviewer.token,
            body: { option, reason: `by ${reviewer.id} on node ${node}` },
          });
          return { reviewer, node, option, result };
        }),
      ),
    );

    const winners = expectOneWinnerEach(races, gateIds);
    // A real race across nodes: winners asked every node, and more than one reviewer won.
    expect(new Set([...winners.values()].map((w) => w.node))).toEqual(new Set([0, 1, 2]));
    expect(new Set([...winners.values()].map((w) => w.reviewer.id)).size).toBeGreaterThan(1);

    // Every node reads the same outcome; the audit trail has one decision per gate, by the winner.
    for (const [n, node] of live.nodes.entries()) {
      const stored: Json[] = await node.client.all('/v1/gates?limit=500', live.tokens.admin);
      expect(stored, `node ${n}`).toHaveLength(gateCount);
      for (const gate of stored) {
        const winner = winners.get(gate.id) as Attempt;
        expect(gate.status).toBe(winner.option === 'approve' ? 'approved' : 'rejected');
        expect(gate.decision).toMatchObject({ decidedBy: winner.reviewer.id, option: winner.option });
      }
    }
    const decided = await live.client(1).all('/v1/audit?kind=gate.decided&limit=500', live.tokens.admin);
    expect(decided).toHaveLength(gateCount);
    expect(new Set(decided.map((e: Json) => e.subject)).size).toBe(gateCount);
    for (const event of decided) {
      expect(event.actor).toBe(`user:${(winners.get(event.subject) as Attempt).reviewer.id}`);
    }
    const verify = await live.client(2).call('GET', '/v1/audit/verify', { token: live.tokens.admin });
    expect(verify.body).toMatchObject({ ok: true });
  }, 240_000);
});
