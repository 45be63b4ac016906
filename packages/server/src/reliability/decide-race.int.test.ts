import type { Role } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { expectOneWinnerEach, type RaceAttempt } from '../testing/decide-race.js';
import { useTestPolicy } from '../testing/gates.js';
import { inPool, type Json, shuffled } from '../testing/http-client.js';
import { addTestPeople, type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const REVIEWERS = 8;
const ROLES: Role[] = ['developer', 'tech_lead'];

const GATES = 1000;
const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('1,000 gates × 8 reviewers racing to decide on %s', (dialect) => {
  const gates = GATES;
  let live: ListeningApp<{ now(): number }> | null = null;
  afterEach(async () => {
    await live?.close();
    live = null;
  });

  it('gives each gate exactly one winner; the other seven get 409 GATE_ALREADY_DECIDED naming it', async () => {
    live = await startListeningApp({ dialect }, { maxSockets: 64 });
    const { test, client } = live;
    await useTestPolicy(test);
    const reviewers = await addTestPeople(
      test,
      'racer',
      Array.from({ length: REVIEWERS }, (_, i) => ROLES[i % 2] as Role),
    );

    const opened = await inPool(
      Array.from({ length: gates }, (_, i) => i),
      32,
      (i) =>
        client.call('POST', '/v1/gates', { token: test.tokens.agent, body: { tool: 'build', args: { i } } }),
    );
    const gateIds: string[] = opened.map((r) => {
      expect(r.status).toBe(200);
      return r.body.gate.id;
    });
    expect(new Set(gateIds).size).toBe(gates);

    // 8 gates at a time, each raced by all 8 reviewers at once in a random order: 64 requests in flight.
    const races = await inPool(gateIds, REVIEWERS, (gateId) =>
      Promise.all(
        shuffled(reviewers).map(async (reviewer, i): Promise<RaceAttempt> => {
          const option = i % 2 === 0 ? 'approve' : 'reject';
          const result = await client.call('POST', `/v1/gates/${gateId}/decide`, {
            token: reviewer.token,
            body: { option, reason: `by ${reviewer.id}` },
          });
          return { reviewer, option, result };
        }),
      ),
    );

    const winners = expectOneWinnerEach(races, gateIds);
    // A real race: more than one reviewer wins somewhere.
    expect(new Set([...winners.values()].map((w) => w.reviewer.id)).size).toBeGreaterThan(1);

    // Every gate ended with exactly the winner's decision, and was decided once on the audit trail.
    const stored: Json[] = await client.all('/v1/gates?limit=500', test.tokens.viewer);
    expect(stored).toHaveLength(gates);
    for (const gate of stored) {
      const winner = winners.get(gate.id) as RaceAttempt;
      expect(gate.status).toBe(winner.option === 'approve' ? 'approved' : 'rejected');
      expect(gate.decision).toMatchObject({ decidedBy: winner.reviewer.id, option: winner.option });
    }
    const decided: Json[] = await client.all('/v1/audit?kind=gate.decided&limit=500', test.tokens.viewer);
    expect(decided).toHaveLength(gates);
    expect(new Set(decided.map((e) => e.subject)).size).toBe(gates);
    for (const event of decided) {
      expect(event.actor).toBe(`user:${(winners.get(event.subject) as RaceAttempt).reviewer.id}`);
    }
    const verify = await client.call('GET', '/v1/audit/verify', { token: test.tokens.viewer });
    expect(verify.body).toMatchObject({ ok: true });
  }, 90_000);
});
