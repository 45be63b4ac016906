import type { Gate } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { type HttpResult, inPool, type Json, sleep } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const GATES = 200;
/** Decisions are sent this far either side of each deadline. */
const SPREAD_MS = 120;
const dialects: TestDialect[] = ['sqlite', 'postgres'];
const RISKS = ['low', 'medium', 'high'] as const;

interface Sent {
  gateId: string;
  timeoutAt: number;
  by: string;
  option: 'approve' | 'reject';
  result: HttpResult;
}

describe.each(dialects)('decisions racing the deadline on %s', (dialect) => {
  let live: ListeningApp<{ now(): number }> | null = null;
  afterEach(async () => {
    await live?.close();
    live = null;
  });

  it('never approves a gate after its deadline; a late decision gets GATE_EXPIRED', async () => {
    live = await startListeningApp({ dialect, config: { sweepIntervalMs: 25 } }, { maxSockets: 64 });
    const { test, client } = live;
    await useTestPolicy(test);
    const reviewers = [
      { id: test.ids.developerId, token: test.tokens.developer },
      { id: test.ids.techLeadId, token: test.tokens.techLead },
    ];

    const opened = await inPool(
      Array.from({ length: GATES }, (_, i) => i),
      16,
      (i) =>
        client.call('POST', '/v1/gates', {
          token: test.tokens.agent,
          body: {
            tool: 'migrate',
            args: { step: i },
            risk: RISKS[i % RISKS.length],
            timeoutSeconds: 1 + (i % 2),
            timeoutAction: 'deny',
          },
        }),
    );
    const gates: Gate[] = opened.map((r) => {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.gate;
    });

    // Two reviewers per gate, each sent at a random moment within SPREAD_MS of the deadline.
    const sent = await Promise.all(
      gates.flatMap((gate) =>
        reviewers.map(async (reviewer, r): Promise<Sent> => {
          const timeoutAt = gate.timeoutAt as number;
          const at = timeoutAt + Math.round((Math.random() * 2 - 1) * SPREAD_MS);
          await sleep(Math.max(0, at - Date.now()));
          const option = r === 0 ? 'approve' : 'reject';
          const result = await client.call('POST', `/v1/gates/${gate.id}/decide`, {
            token: reviewer.token,
            body: { option },
          });
          return { gateId: gate.id, timeoutAt, by: reviewer.id, option, result };
        }),
      ),
    );

    let decidedInTime = 0;
    let refusedLate = 0;
    let refusedBeforeSweep = 0;
    for (const attempt of sent) {
      const { result, timeoutAt } = attempt;
      const detail = JSON.stringify({ ...attempt, late: result.sentAt - timeoutAt });
      if (result.status === 200) {
        decidedInTime += 1;
        expect(result.body.decision.decidedAt, detail).toBeLessThan(timeoutAt);
        // Sent after the deadline can never win.
        expect(result.sentAt, detail).toBeLessThan(timeoutAt);
        continue;
      }
      expect(result.status, detail).toBe(409);
      const { code, details } = result.body.error;
      if (code === 'GATE_ALREADY_DECIDED') {
        expect(details.winner.decidedAt, detail).toBeLessThan(timeoutAt);
        continue;
      }
      expect(code, detail).toBe('GATE_EXPIRED');
      refusedLate += 1;
      // Still pending when it arrived (no status in the details): the deadline check itself refused it.
      if (details.status === undefined) refusedBeforeSweep += 1;
    }
    // Every side of the race happened, including late decisions that beat the sweeper.
    expect(decidedInTime).toBeGreaterThan(0);
    expect(refusedLate).toBeGreaterThan(0);
    expect(refusedBeforeSweep).toBeGreaterThan(0);

    // The sweeper ends the rest; each gate ends once: by a person before its deadline, or by it.
    const lastDeadline = Math.max(...gates.map((g) => g.timeoutAt as number));
    await sleep(Math.max(0, lastDeadline - Date.now()));
    for (let i = 0; i < 200; i++) {
      if ((await test.store.read((tx) => tx.countGates({ status: 'pending' }))) === 0) break;
      await sleep(25);
    }
    const stored = await test.store.read((tx) => tx.listGates({ limit: 1000 }));
    expect(stored.items).toHaveLength(GATES);
    for (const gate of stored.items) {
      const deadline = gate.timeoutAt as number;
      expect(gate.decision, gate.id).not.toBeNull();
      const decision = gate.decision as NonNullable<Gate['decision']>;
      if (gate.status === 'expired') {
        expect(decision.decidedBy).toBe('system:timeout');
        expect(decision.decidedAt).toBeGreaterThanOrEqual(deadline);
      } else {
        expect(['approved', 'rejected']).toContain(gate.status);
        expect(decision.decidedBy).not.toBe('system:timeout');
        expect(decision.decidedAt, gate.id).toBeLessThan(deadline);
      }
    }
    const ended = new Map<string, string[]>();
    for (const kind of ['gate.decided', 'gate.expired', 'gate.auto_approved']) {
      const events: Json[] = await client.all(`/v1/audit?kind=${kind}&limit=500`, test.tokens.viewer);
      for (const event of events) ended.set(event.subject, [...(ended.get(event.subject) ?? []), kind]);
    }
    for (const gate of stored.items) {
      expect(ended.get(gate.id)).toEqual([gate.status === 'expired' ? 'gate.expired' : 'gate.decided']);
    }
    const verify = await client.call('GET', '/v1/audit/verify', { token: test.tokens.viewer });
    expect(verify.body).toMatchObject({ ok: true });
  }, 60_000);
});
