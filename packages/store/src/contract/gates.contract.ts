import fc from 'fast-check';
import type { Gate } from 'gatehouse-hitl-core';
import { expect, it } from 'vitest';
import type { GateFilter, Store } from '../types.js';
import { makeGate } from './fixtures.js';
import type { ContractContext } from './harness.js';

async function insertGates(store: Store, gates: Gate[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const gate of gates) await tx.insertGate(gate);
  });
}

function approved(gate: Gate, by: string): Gate {
  return {
    ...gate,
    status: 'approved',
    decision: {
      option: 'approve',
      outcome: 'approved',
      decidedBy: by,
      affectedArtifacts: [],
      decidedAt: 5_000,
    },
  };
}

/** Gates: documents with indexed columns, filters, paging, conditional updates, deadlines. */
export function describeGateContract(ctx: ContractContext): void {
  it('round-trips a gate with every field and starts it at version 1', async () => {
    const { store } = ctx.harness();
    const gate = makeGate({
      timeoutAt: 9_000,
      assignees: ['user_a', 'user_b'],
      approvals: [{ by: 'x', at: 1 }],
    });
    await insertGates(store, [gate]);
    expect(await store.read((tx) => tx.getGate(gate.id))).toEqual({ ...gate, version: 1 });
    expect(await store.read((tx) => tx.getGate('gate_missing'))).toBeNull();
    await expect(insertGates(store, [gate])).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('filters gates by status, type, risk, agent, run and assignee, and counts them', async () => {
    const { store } = ctx.harness();
    const a = makeGate({ createdAt: 1, assignees: ['user_a'] });
    const b = makeGate({
      createdAt: 2,
      type: 'destructive_action',
      risk: 'high',
      assignees: ['user_a', 'user_b'],
    });
    const c = makeGate({ createdAt: 3, status: 'rejected', agentId: 'agent_b', runId: 'run_b' });
    await insertGates(store, [a, b, c]);
    const ids = async (filter: GateFilter) =>
      (await store.read((tx) => tx.listGates(filter))).items.map((gate) => gate.id);
    expect(await ids({ status: 'pending' })).toEqual([a.id, b.id]);
    expect(await ids({ status: ['rejected', 'approved'] })).toEqual([c.id]);
    expect(await ids({ status: [] })).toEqual([]);
    expect(await ids({ type: 'destructive_action', risk: 'high' })).toEqual([b.id]);
    expect(await ids({ agentId: 'agent_b' })).toEqual([c.id]);
    expect(await ids({ runId: 'run_a' })).toEqual([a.id, b.id]);
    expect(await ids({ assignee: 'user_a' })).toEqual([a.id, b.id]);
    expect(await ids({ assignee: 'user_b', status: 'pending' })).toEqual([b.id]);
    expect(await store.read((tx) => tx.countGates({}))).toBe(3);
    expect(await store.read((tx) => tx.countGates({ status: 'pending', assignee: 'user_b' }))).toBe(1);
    for (const [runId, pending] of [
      ['run_a', 2],
      ['run_b', 0],
      ['run_a', 2],
      ['run_none', 0],
    ] as const) {
      expect(await store.read((tx) => tx.countGates({ status: 'pending', runId }))).toBe(pending);
    }
    expect(await store.read((tx) => tx.countGates({ status: 'rejected', runId: 'run_b' }))).toBe(1);
  });

  it('pages gates oldest first with a cursor, ties broken by id', async () => {
    const { store } = ctx.harness();
    const gates = ['gate_e', 'gate_d', 'gate_c', 'gate_b', 'gate_a'].map((id, i) =>
      makeGate({ id, createdAt: i < 2 ? 100 : 100 + i }),
    );
    await insertGates(store, gates);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Gate[]; nextCursor: string | null } = await store.read((tx) =>
        tx.listGates(cursor === null ? { limit: 2 } : { limit: 2, cursor }),
      );
      seen.push(...page.items.map((gate) => gate.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(['gate_d', 'gate_e', 'gate_c', 'gate_b', 'gate_a']);
    await expect(store.read((tx) => tx.listGates({ limit: 0 }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'limit' },
    });
  });

  it('lets exactly one of two concurrent updates at the same version win', async () => {
    const { store } = ctx.harness();
    const gate = makeGate();
    await insertGates(store, [gate]);
    const results = await Promise.all(
      ['user_a', 'user_b'].map((by) => store.transaction((tx) => tx.updateGate(approved(gate, by), 1))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const stored = await store.read((tx) => tx.getGate(gate.id));
    expect(stored?.version).toBe(2);
    expect(stored?.decision?.decidedBy).toBe(results[0] ? 'user_a' : 'user_b');
  });

  it('refuses an update at a stale version even when the gate stays pending', async () => {
    const { store } = ctx.harness();
    const gate = makeGate({ timeoutAt: null, assignees: ['user_a'] });
    await insertGates(store, [gate]);
    const first = { ...gate, assignees: ['user_b'] };
    expect(await store.transaction((tx) => tx.updateGate(first, 1))).toBe(true);
    const stale = { ...gate, timeoutAt: 1, assignees: ['user_c'] };
    expect(await store.transaction((tx) => tx.updateGate(stale, 1))).toBe(false);
    expect(await store.transaction((tx) => tx.updateGate(stale, 1, { beforeDeadline: true }))).toBe(false);
    expect(await store.read((tx) => tx.getGate(gate.id))).toEqual({ ...first, version: 2 });
    expect(await store.read((tx) => tx.countGates({ assignee: 'user_c' }))).toBe(0);
  });

  it('lets exactly one of two concurrent updates that keep the gate pending win', async () => {
    const { store } = ctx.harness();
    const gate = makeGate({ assignees: [] });
    await insertGates(store, [gate]);
    const results = await Promise.all(
      ['user_a', 'user_b'].map((by) =>
        store.transaction((tx) => tx.updateGate({ ...gate, assignees: [by] }, 1)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const stored = await store.read((tx) => tx.getGate(gate.id));
    expect(stored).toMatchObject({
      status: 'pending',
      version: 2,
      assignees: [results[0] ? 'user_a' : 'user_b'],
    });
  });

  it('applies an update that keeps a gate pending only at its current version (property)', async () => {
    const { store } = ctx.harness();
    // Each step asks for the current version shifted by -2..+1: only a shift of 0 may land.
    const steps = fc.array(fc.integer({ min: -2, max: 1 }), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(steps, async (shifts) => {
        const gate = makeGate({ assignees: [] });
        await insertGates(store, [gate]);
        let version = 1;
        for (const [step, shift] of shifts.entries()) {
          const next = { ...gate, assignees: [`user_${step}`] };
          const landed = await store.transaction((tx) => tx.updateGate(next, version + shift));
          expect(landed).toBe(shift === 0);
          if (landed) version += 1;
        }
        const stored = await store.read((tx) => tx.getGate(gate.id));
        expect(stored?.version).toBe(version);
        expect(stored?.assignees).toEqual(version === 1 ? [] : [`user_${shifts.lastIndexOf(0)}`]);
      }),
      { numRuns: 20 },
    );
  });

  it("never changes a gate's agent, run or creation time, and keeps finding it by them", async () => {
    const { store } = ctx.harness();
    const gate = makeGate({ agentId: 'agent_a', runId: 'run_a', assignees: [] });
    const runless = makeGate({ agentId: null, runId: null, assignees: [] });
    await insertGates(store, [gate, runless]);
    for (const changed of [
      { ...gate, agentId: 'agent_b' },
      { ...gate, agentId: null },
      { ...gate, runId: 'run_b' },
      { ...gate, runId: null },
      { ...gate, createdAt: gate.createdAt + 1 },
      { ...runless, runId: 'run_a' },
    ]) {
      expect(await store.transaction((tx) => tx.updateGate(approved(changed, 'user_a'), 1))).toBe(false);
    }
    expect(await store.read((tx) => tx.getGate(gate.id))).toEqual({ ...gate, version: 1 });
    expect(await store.transaction((tx) => tx.updateGate(approved(gate, 'user_a'), 1))).toBe(true);
    expect(await store.transaction((tx) => tx.updateGate(approved(runless, 'user_a'), 1))).toBe(true);
    const ids = async (filter: GateFilter) =>
      (await store.read((tx) => tx.listGates(filter))).items.map((listed) => listed.id).sort();
    expect(await ids({ agentId: 'agent_a', status: 'approved' })).toEqual([gate.id]);
    expect(await ids({ runId: 'run_a', status: 'approved' })).toEqual([gate.id]);
    expect(await ids({ status: 'pending' })).toEqual([]);
    expect(await ids({ status: 'approved' })).toEqual([gate.id, runless.id].sort());
  });

  it('never updates a gate that is no longer pending', async () => {
    const { store } = ctx.harness();
    const gate = makeGate({ status: 'approved' });
    await insertGates(store, [gate]);
    expect(await store.transaction((tx) => tx.updateGate({ ...gate, status: 'rejected' }, 1))).toBe(false);
  });

  it('rewrites assignees with the gate, keeping the row version out of the document', async () => {
    const { store } = ctx.harness();
    const gate = makeGate({ assignees: ['user_a'] });
    await insertGates(store, [gate]);
    const stored = await store.read((tx) => tx.getGate(gate.id));
    const reassigned = { ...stored, assignees: ['user_c'] } as Gate & { version: number };
    expect(await store.transaction((tx) => tx.updateGate(reassigned, 1))).toBe(true);
    const [listed] = (await store.read((tx) => tx.listGates({}))).items;
    expect(listed).toEqual({ ...gate, assignees: ['user_c'] });
    expect(await store.read((tx) => tx.countGates({ assignee: 'user_a' }))).toBe(0);
    expect(await store.read((tx) => tx.countGates({ assignee: 'user_c' }))).toBe(1);
  });

  it('refuses an update before the deadline once the deadline has passed by database time', async () => {
    const { store } = ctx.harness();
    const now = await store.databaseNow();
    const late = makeGate({ timeoutAt: now - 1_000 });
    const open = makeGate({ timeoutAt: now + 600_000 });
    const endless = makeGate({ timeoutAt: null });
    await insertGates(store, [late, open, endless]);
    const decide = (gate: Gate) =>
      store.transaction((tx) => tx.updateGate(approved(gate, 'user_a'), 1, { beforeDeadline: true }));
    expect(await decide(late)).toBe(false);
    expect(await decide(open)).toBe(true);
    expect(await decide(endless)).toBe(true);
    const expired = { ...late, status: 'expired' as const };
    expect(await store.transaction((tx) => tx.updateGate(expired, 1))).toBe(true);
    expect((await store.read((tx) => tx.getGate(late.id)))?.status).toBe('expired');
  });

  it('claims pending gates whose deadline passed, earliest first, up to the limit', async () => {
    const { store } = ctx.harness();
    const now = await store.databaseNow();
    const first = makeGate({ timeoutAt: now - 3_000 });
    const second = makeGate({ timeoutAt: now - 2_000 });
    const third = makeGate({ timeoutAt: now - 1_000 });
    const future = makeGate({ timeoutAt: now + 600_000 });
    const ended = makeGate({ timeoutAt: now - 5_000, status: 'approved' });
    await insertGates(store, [third, future, first, ended, second]);
    const claimed = await store.transaction(async (tx) => {
      expect(Math.abs(tx.now - now)).toBeLessThan(60_000);
      return tx.claimDueGates(2);
    });
    expect(claimed.map((gate) => gate.id)).toEqual([first.id, second.id]);
    expect(claimed[0]).toEqual({ ...first, version: 1 });
    const all = await store.transaction((tx) => tx.claimDueGates(10));
    expect(all.map((gate) => gate.id)).toEqual([first.id, second.id, third.id]);
  });

  it('keeps a gate’s trace context beside it, out of its document, through later updates', async () => {
    const { store } = ctx.harness();
    const gate = makeGate();
    const untraced = makeGate();
    const traceContext = JSON.stringify({
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    });
    await store.transaction(async (tx) => {
      await tx.insertGate(gate);
      await tx.setGateTraceContext(gate.id, traceContext);
      await tx.insertGate(untraced);
    });
    expect(await store.read((tx) => tx.getGateTraceContext(gate.id))).toBe(traceContext);
    expect(await store.read((tx) => tx.getGateTraceContext(untraced.id))).toBeNull();
    expect(await store.read((tx) => tx.getGateTraceContext('gate_missing'))).toBeNull();
    expect(await store.transaction((tx) => tx.updateGate(approved(gate, 'user_a'), 1))).toBe(true);
    expect(await store.read((tx) => tx.getGateTraceContext(gate.id))).toBe(traceContext);
    expect(await store.read((tx) => tx.getGate(gate.id))).toEqual({
      ...approved(gate, 'user_a'),
      version: 2,
    });
  });
}
