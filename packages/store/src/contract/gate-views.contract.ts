import { expect, it } from 'vitest';
import { makeGate } from './fixtures.js';
import type { ContractContext } from './harness.js';

/** What people opened of each gate: recorded once per person and part, the first time winning. */
export function describeGateViewContract(ctx: ContractContext): void {
  it('records a view once per person and part and keeps the first time', async () => {
    const { store } = ctx.harness();
    const gate = makeGate();
    await store.transaction((tx) => tx.insertGate(gate));
    const first = { gateId: gate.id, userId: 'u_ann', part: 'diff' as const, viewedAt: 1_000 };
    expect(await store.transaction((tx) => tx.recordGateView(first))).toEqual(first);
    expect(await store.transaction((tx) => tx.recordGateView({ ...first, viewedAt: 5_000 }))).toEqual(first);
    await store.transaction((tx) => tx.recordGateView({ ...first, part: 'arguments', viewedAt: 2_000 }));
    await store.transaction((tx) => tx.recordGateView({ ...first, userId: 'u_bob', viewedAt: 3_000 }));
    const views = await store.read((tx) => tx.listGateViews([gate.id]));
    expect(views).toEqual([
      first,
      { ...first, part: 'arguments', viewedAt: 2_000 },
      { ...first, userId: 'u_bob', viewedAt: 3_000 },
    ]);
  });

  it('lists the views of many gates and none of the others', async () => {
    const { store } = ctx.harness();
    const gates = Array.from({ length: 3 }, () => makeGate());
    await store.transaction(async (tx) => {
      for (const gate of gates) {
        await tx.insertGate(gate);
        await tx.recordGateView({ gateId: gate.id, userId: 'u_ann', part: 'findings', viewedAt: 10 });
      }
    });
    const ids = gates.slice(0, 2).map((g) => g.id);
    const views = await store.read((tx) => tx.listGateViews(ids));
    expect(views.map((v) => v.gateId).sort()).toEqual([...ids].sort());
    expect(await store.read((tx) => tx.listGateViews([]))).toEqual([]);
  });
}
