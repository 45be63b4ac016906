import type { StreamEventName } from 'gatehouse-hitl-protocol';
import { expect, it } from 'vitest';
import type { StreamEvent } from '../types.js';
import { makeAgent, makeGate } from './fixtures.js';
import type { ContractContext } from './harness.js';

function event(
  type: StreamEventName,
  runId: string | null,
  data: Record<string, unknown> = {},
): Omit<StreamEvent, 'seq' | 'at'> {
  return { type, runId, agentId: 'agent_a', gateId: null, data };
}

/** Stream events in order, and JSON documents that survive the trip byte for byte. */
export function describeStreamContract(ctx: ContractContext): void {
  it('numbers stream events in commit order and lists them after a seq', async () => {
    const { store } = ctx.harness();
    expect(await store.latestStreamSeq()).toBe(0);
    const first = await store.transaction(async (tx) => [
      await tx.appendStreamEvent(event('gate.opened', 'run_a', { n: 1 })),
      await tx.appendStreamEvent(event('gate.opened', 'run_b', { n: 2 })),
    ]);
    const [third] = await Promise.all([
      store.transaction((tx) => tx.appendStreamEvent(event('gate.decided', 'run_a', { n: 3 }))),
      store.transaction((tx) => tx.appendStreamEvent(event('run.status', null, { n: 4 }))),
    ]);
    expect(first[0]?.at).toBeTypeOf('number');
    expect(first[1]?.seq).toBeGreaterThan(first[0]?.seq ?? Number.POSITIVE_INFINITY);
    const all = await store.listStreamEvents({ afterSeq: 0 });
    expect(all.map((e) => e.data.n)).toEqual([1, 2, 3, 4]);
    expect(all.slice(0, 3)).toEqual([...first, third]);
    const seqs = all.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(await store.latestStreamSeq()).toBe(seqs[3]);
    const afterFirst = await store.listStreamEvents({ afterSeq: seqs[0] ?? 0 });
    expect(afterFirst.map((e) => e.data.n)).toEqual([2, 3, 4]);
    const runA = await store.listStreamEvents({ afterSeq: 0, runId: 'run_a' });
    expect(runA.map((e) => e.data.n)).toEqual([1, 3]);
    expect((await store.listStreamEvents({ afterSeq: 0, limit: 2 })).map((e) => e.data.n)).toEqual([1, 2]);
  });

  it('round-trips unicode, emoji, control characters and long text in JSON documents', async () => {
    const { store } = ctx.harness();
    const text = 'Zürich 東京 👩🏽‍💻 🚀 \u0007 "quoted" \\ back\nslash \u2028 end';
    const withNul = `${text} \u0000`;
    const gate = makeGate({ title: withNul, context: { [withNul]: withNul, long: 'x'.repeat(100_000) } });
    const audited = await store.transaction(async (tx) => {
      await tx.insertGate(gate);
      await tx.appendStreamEvent(event('gate.opened', 'run_a', { withNul }));
      return tx.appendAudit({ kind: 'gate.opened', actor: text, subject: gate.id, data: { withNul } });
    });
    expect(await store.read((tx) => tx.getGate(gate.id))).toEqual({ ...gate, version: 1 });
    expect((await store.listStreamEvents({ afterSeq: 0 }))[0]?.data).toEqual({ withNul });
    expect((await store.queryAudit({})).items).toEqual([audited]);
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 1 });
  });

  it('refuses NUL in plain text columns on every engine, naming the fix', async () => {
    const { store } = ctx.harness();
    await expect(
      store.transaction((tx) => tx.insertAgent(makeAgent({ name: 'bad\u0000name' }))),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await store.read((tx) => tx.listAgents())).toEqual([]);
  });

  it('stores __proto__ keys as plain data without touching prototypes', async () => {
    const { store } = ctx.harness();
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
    const gate = makeGate({ context: hostile });
    await store.transaction(async (tx) => {
      await tx.insertGate(gate);
      await tx.appendAudit({ kind: 'gate.opened', actor: 'a', subject: gate.id, data: hostile });
      await tx.putIdempotency({ scope: 's', key: 'k', requestHash: 'h', response: hostile, createdAt: 1 });
    });
    const stored = await store.read((tx) => tx.getGate(gate.id));
    expect(Object.hasOwn(stored?.context ?? {}, '__proto__')).toBe(true);
    expect(JSON.stringify(stored?.context)).toBe(JSON.stringify(hostile));
    const response = (await store.read((tx) => tx.getIdempotency('s', 'k')))?.response;
    expect(JSON.stringify(response)).toBe(JSON.stringify(hostile));
    const [audited] = (await store.queryAudit({})).items;
    expect(JSON.stringify(audited?.data)).toBe(JSON.stringify(hostile));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true });
  });
}
