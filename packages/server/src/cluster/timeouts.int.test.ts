import type { AuditEvent } from 'gatehouse-hitl-core';
import type { Store } from 'gatehouse-hitl-store';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, loadFor, startCluster } from '../testing/cluster.js';
import { inPool, sleep } from '../testing/http-client.js';

const FIVE_MINUTES = 5 * 60_000;
/** How far this process's clock may be from the database's (both are this machine's clock here). */
const CLOCK_TOLERANCE_MS = 1000;
/** Far below the 5 min skew, far above a sweep: this 2-core machine is shared with other test runs. */
const LATE_LIMIT_MS = 60_000;
const TIMEOUT_KIND = { deny: 'gate.expired', escalate: 'gate.escalated', proceed: 'gate.auto_approved' };
const STATUS_AFTER = { deny: 'expired', escalate: 'pending', proceed: 'approved' };
type TimeoutAction = keyof typeof TIMEOUT_KIND;
const ACTIONS: TimeoutAction[] = ['deny', 'escalate', 'proceed'];
const TIMEOUT_KINDS = new Set<string>(Object.values(TIMEOUT_KIND));

interface OpenedGate {
  id: string;
  timeoutAt: number;
  action: TimeoutAction;
}

/**
 * Opens `count` gates over the nodes, gate i due `seconds(i)` after it opens, with a rotating timeout
 * action. Each has an idempotency key, so one whose node died is sent again to the next node.
 */
async function openTimedGates(
  cluster: Cluster,
  options: { count: number; seconds: (i: number) => number; prefix: string },
): Promise<OpenedGate[]> {
  const { count, seconds, prefix } = options;
  return inPool(
    Array.from({ length: count }, (_, i) => i),
    24,
    async (i): Promise<OpenedGate> => {
      const action = ACTIONS[i % ACTIONS.length] as TimeoutAction;
      const body = {
        tool: action === 'proceed' ? 'migrate_proceed' : 'migrate',
        args: { prefix, i },
        timeoutSeconds: seconds(i),
        timeoutAction: action,
      };
      const sentAt = Date.now();
      const answer = await cluster.callAnyNode(i, 'POST', '/v1/gates', {
        token: cluster.tokens.agent,
        headers: { 'idempotency-key': `${prefix}-${i}` },
        body,
      });
      if (answer.status !== 200) throw new Error(`opening gate ${i} failed: ${JSON.stringify(answer.body)}`);
      const timeoutAt: number = answer.body.gate.timeoutAt;
      // The database's clock sets the deadline, whichever node opened the gate and however wrong its clock.
      const timeoutMs = seconds(i) * 1000;
      expect(timeoutAt, answer.body.gate.id).toBeGreaterThanOrEqual(sentAt + timeoutMs - CLOCK_TOLERANCE_MS);
      expect(timeoutAt, answer.body.gate.id).toBeLessThanOrEqual(
        answer.answeredAt + timeoutMs + CLOCK_TOLERANCE_MS,
      );
      return { id: answer.body.gate.id, timeoutAt, action };
    },
  );
}

/** Every timeout event in the database, by gate. */
async function timeoutEvents(store: Store): Promise<Map<string, AuditEvent[]>> {
  const bySubject = new Map<string, AuditEvent[]>();
  for await (const event of store.streamAudit()) {
    if (!TIMEOUT_KINDS.has(event.kind) || event.subject === null) continue;
    bySubject.set(event.subject, [...(bySubject.get(event.subject) ?? []), event]);
  }
  return bySubject;
}

/** Waits until every gate has a timeout event, at most until LATE_LIMIT_MS after the last deadline. */
async function untilAllFired(store: Store, gates: readonly OpenedGate[]): Promise<Map<string, AuditEvent[]>> {
  const until = Math.max(...gates.map((gate) => gate.timeoutAt)) + LATE_LIMIT_MS;
  for (;;) {
    const events = await timeoutEvents(store);
    if (gates.every((gate) => events.has(gate.id)) || Date.now() > until) return events;
    await sleep(250);
  }
}

/** Each gate fired once, as its action says, never before its deadline by the database's clock. */
function expectFiredOnce(
  gates: readonly OpenedGate[],
  events: Map<string, AuditEvent[]>,
): { maxLateMs: number } {
  let maxLateMs = 0;
  for (const gate of gates) {
    const fired = events.get(gate.id) ?? [];
    expect(
      fired.map((event) => event.kind),
      gate.id,
    ).toEqual([TIMEOUT_KIND[gate.action]]);
    const at = (fired[0] as AuditEvent).at;
    expect(at, `${gate.id} fired ${gate.timeoutAt - at} ms early`).toBeGreaterThanOrEqual(gate.timeoutAt);
    maxLateMs = Math.max(maxLateMs, at - gate.timeoutAt);
  }
  return { maxLateMs };
}

/** Fails as soon as any of `gates` has fired before its deadline; watches until `untilMs`. */
async function watchForEarlyFires(
  store: Store,
  gates: readonly OpenedGate[],
  untilMs: number,
): Promise<void> {
  while (Date.now() < untilMs) {
    const events = await timeoutEvents(store);
    for (const gate of gates) {
      const early = (events.get(gate.id) ?? []).filter((event) => event.at < gate.timeoutAt);
      expect(early, `${gate.id} fired before its deadline`).toEqual([]);
    }
    await sleep(150);
  }
}

async function expectStatuses(store: Store, gates: readonly OpenedGate[]): Promise<void> {
  const stored = await store.read((tx) => tx.listGates({ limit: 1000 }));
  const statusOf = new Map(stored.items.map((gate) => [gate.id, gate.status]));
  for (const gate of gates) expect(statusOf.get(gate.id), gate.id).toBe(STATUS_AFTER[gate.action]);
}

describe('timeouts across three nodes on one Postgres', () => {
  let cluster: Cluster | null = null;
  afterEach(async () => {
    await cluster?.close();
    cluster = null;
  });

  it('fires each of 1,000 timeouts (200 in-process) exactly once while the nodes firing them are killed with -9 and restarted', async () => {
    const live = await startCluster({ nodes: 3, sweepIntervalMs: 50 });
    cluster = live;
    await live.setPolicy();
    const store = live.postgres.store;

    // Kill -9 and restart each node in turn from the first gate on, until every gate has fired.
    const killedAt: number[] = [];
    let done = false;
    const chaos = (async () => {
      for (let k = 0; !done; k++) {
        await sleep(300);
        await live.kill(k % 3);
        killedAt.push(Date.now());
        await sleep(100);
        await live.restart(k % 3);
      }
    })();
    // Due 5–24 s after each opens: deadlines keep passing while nodes die, also those opening gates.
    const count = loadFor(live, { server: 1000, inProcess: 200 });
    const gates = await openTimedGates(live, { count, seconds: (i) => 5 + (i % 20), prefix: 'chaos' });
    expect(new Set(gates.map((gate) => gate.id)).size).toBe(count);
    const events = await untilAllFired(store, gates);
    done = true;
    await chaos;

    const firstDeadline = Math.min(...gates.map((gate) => gate.timeoutAt));
    const lastFired = Math.max(...[...events.values()].flat().map((event) => event.at));
    const killsWhileDue = killedAt.filter((at) => at > firstDeadline && at < lastFired).length;
    // A restart takes seconds on a busy 2-core machine, so this is the floor, not the usual count.
    expect(killsWhileDue).toBeGreaterThanOrEqual(2);
    const { maxLateMs } = expectFiredOnce(gates, events);
    expect(maxLateMs).toBeLessThan(LATE_LIMIT_MS);
    await expectStatuses(store, gates);
    expect(await store.read((tx) => tx.countGates({}))).toBe(count);
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true });
  }, 240_000);

  it('never fires early on a node whose clock is 5 min fast, and still fires on time with one 5 min slow', async () => {
    const live = await startCluster({
      nodes: 3,
      sweepIntervalMs: 50,
      nodeEnv: {
        0: { GATEHOUSE_TEST_CLOCK_SKEW_MS: String(FIVE_MINUTES) },
        1: { GATEHOUSE_TEST_CLOCK_SKEW_MS: String(-FIVE_MINUTES) },
      },
    });
    cluster = live;
    await live.setPolicy();
    const store = live.postgres.store;

    const [reviewer] = await live.addPeople('skewed', ['developer']);
    const decideOn = (node: number, gate: OpenedGate) =>
      live.node(node).client.call('POST', `/v1/gates/${gate.id}/decide`, {
        token: reviewer?.token ?? '',
        body: { option: 'reject' },
      });

    // A decision a minute before the deadline is in time, also on the node that thinks it is 4 min late.
    const early = await openTimedGates(live, { count: 30, seconds: () => 60, prefix: 'early' });
    for (const gate of early) {
      const answer = await decideOn(0, gate);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }

    // All three sweep: the fast node would fire every gate at once if its own clock decided.
    const together = await openTimedGates(live, { count: 300, seconds: (i) => 6 + (i % 3), prefix: 'all' });
    await watchForEarlyFires(store, together, Math.min(...together.map((gate) => gate.timeoutAt)) - 100);
    expectFiredOnce(together, await untilAllFired(store, together));

    // Only the slow node is left: the database's clock still fires its gates on time, not 5 min late.
    await live.kill(0);
    await live.kill(2);
    const slowOnly = await openTimedGates(live, { count: 100, seconds: () => 2, prefix: 'slow' });
    expectFiredOnce(slowOnly, await untilAllFired(store, slowOnly));

    // A decision after the deadline is too late, also on the node that thinks it is 5 min early, and
    // also before any sweep has ended the gate (this node now sweeps once a minute).
    await live.kill(1);
    await live.restart(1, { GATEHOUSE_SWEEP_INTERVAL_MS: '60000' });
    const late = await openTimedGates(live, { count: 30, seconds: () => 1, prefix: 'late' });
    await sleep(Math.max(...late.map((gate) => gate.timeoutAt)) + 300 - Date.now());
    for (const gate of late) {
      const answer = await decideOn(1, gate);
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect(answer.body.error.code).toBe('GATE_EXPIRED');
    }
    const lateStored = await store.read((tx) => tx.listGates({ status: 'pending', limit: 1000 }));
    const stillPending = new Set(lateStored.items.map((gate) => gate.id));
    expect(late.filter((gate) => !stillPending.has(gate.id))).toEqual([]);

    // Only the fast node is left: nothing fires before its deadline, everything fires after it.
    await live.restart(0);
    await live.kill(1);
    const fastOnly = await openTimedGates(live, { count: 100, seconds: () => 5, prefix: 'fast' });
    await watchForEarlyFires(store, fastOnly, Math.min(...fastOnly.map((gate) => gate.timeoutAt)) - 100);
    expectFiredOnce(fastOnly, await untilAllFired(store, fastOnly));

    await expectStatuses(store, [...together, ...slowOnly, ...fastOnly]);
    const decided = await store.read((tx) => tx.listGates({ status: 'rejected', limit: 1000 }));
    expect(decided.items.map((gate) => gate.id).sort()).toEqual(early.map((gate) => gate.id).sort());
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true });
  }, 240_000);
});
