import { afterEach, describe, expect, it } from 'vitest';
import { makeAgent } from './contract/fixtures.js';
import { openTracedStore, type TracedStore } from './testing/traced-store.js';
import type { ExecutedStatement, Store, UnitOptions } from './types.js';

describe.each(Object.keys(openTracedStore) as (keyof typeof openTracedStore)[])(
  'replayable units on %s',
  (dialect) => {
    const opened: TracedStore[] = [];
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
    });

    async function open(): Promise<TracedStore> {
      const each = await openTracedStore[dialect]();
      opened.push(each);
      return each;
    }

    /** Queues `count` units in one turn of the event loop, so they share a batch; unit `failing` throws. */
    function queue(
      store: Store,
      count: number,
      options: { failing?: number; failingOnce?: number; unit?: (i: number) => UnitOptions },
    ) {
      const runs = new Array<number>(count).fill(0);
      const results = Array.from({ length: count }, (_, i) =>
        store.transaction(async (tx) => {
          runs[i] = (runs[i] ?? 0) + 1;
          const agent = makeAgent({ id: `agent_${String(i).padStart(3, '0')}` });
          await tx.insertAgent(agent);
          await tx.appendAudit({
            kind: 'agent.created',
            actor: 'user_admin',
            subject: agent.id,
            data: { i },
          });
          if (i === options.failing) throw new Error(`unit ${i} fails`);
          if (i === options.failingOnce && runs[i] === 1) throw new Error(`unit ${i} fails once`);
          return i;
        }, options.unit?.(i) ?? { replayable: true }),
      );
      return { runs, settled: Promise.allSettled(results) };
    }

    const savepoints = (trace: ExecutedStatement[]) => trace.filter((s) => /savepoint/i.test(s.sql)).length;

    it('runs a batch of replayable units without a savepoint per unit', async () => {
      const { store, trace } = await open();
      trace.length = 0;
      const { settled } = queue(store, 20, {});
      expect((await settled).every((result) => result.status === 'fulfilled')).toBe(true);
      expect(savepoints(trace)).toBe(0);
      expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 20 });
    });

    it('rejects only the replayable unit that throws, from the run that commits', async () => {
      const { store } = await open();
      const { runs, settled } = queue(store, 10, { failing: 6 });
      const results = await settled;
      expect(results.map((result) => result.status)).toEqual(
        [...'ffffffrfff'].map((c) => (c === 'f' ? 'fulfilled' : 'rejected')),
      );
      expect(results[6]).toMatchObject({ reason: { message: 'unit 6 fails' } });
      expect(runs).toEqual([2, 2, 2, 2, 2, 2, 2, 1, 1, 1]);
      const stored = await store.read((tx) => tx.listAgents());
      expect(stored).toHaveLength(9);
      expect(stored.some((agent) => agent.id === 'agent_006')).toBe(false);
      expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 9 });
    });

    it('answers a unit whose first run failed by its run in the batch that commits', async () => {
      // What the unit saw the first time was rolled back (on Postgres another node may have
      // committed since): an error from that run would describe a state that never was.
      const { store } = await open();
      const { runs, settled } = queue(store, 10, { failingOnce: 6 });
      expect((await settled).every((result) => result.status === 'fulfilled')).toBe(true);
      expect(runs).toEqual([2, 2, 2, 2, 2, 2, 2, 1, 1, 1]);
      expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 10 });
    });

    it('gives each unit its savepoint when the batch holds one that is not replayable', async () => {
      const { store, trace } = await open();
      trace.length = 0;
      const { runs, settled } = queue(store, 5, { failing: 2, unit: (i) => ({ replayable: i !== 4 }) });
      expect((await settled).map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect(runs).toEqual([1, 1, 1, 1, 1]);
      expect(savepoints(trace)).toBeGreaterThanOrEqual(5);
    });
  },
);
