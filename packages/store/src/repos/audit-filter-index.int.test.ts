import { afterEach, describe, expect, it } from 'vitest';
import { openTracedStore, type TracedStore } from '../testing/traced-store.js';
import type { ExecutedStatement, Store } from '../types.js';
import { AUDIT_FILTER_BATCH } from './audit-filter-index.js';

/** Appends `count` events for 50 agents in one commit and returns the statements that commit ran. */
async function commitOf(traced: TracedStore, count: number) {
  const from = traced.trace.length;
  await traced.store.transaction(async (tx) => {
    const head = await tx.getAuditHead();
    for (let i = head.seq; i < head.seq + count; i++) {
      await tx.appendAudit({
        kind: 'request.allowed',
        actor: `agent:${i % 50}`,
        subject: `agent_${i % 50}`,
        data: {},
      });
    }
  });
  return traced.trace.slice(from);
}

const filling = (statements: ExecutedStatement[]) =>
  statements.filter((s) => /audit_by_actor|audit_by_subject|audit_filter_mark/.test(s.sql));

async function seqsOf(store: Store, actor: string) {
  return (await store.queryAudit({ actor, limit: 1000 })).items.map((event) => event.seq);
}

describe.each(Object.keys(openTracedStore) as (keyof typeof openTracedStore)[])(
  'audit filter tables on %s',
  (dialect) => {
    const opened: TracedStore[] = [];
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
    });

    it('are filled only by the commit that crosses a batch, with four statements', async () => {
      const traced = await openTracedStore[dialect]();
      opened.push(traced);
      const below = await commitOf(traced, AUDIT_FILTER_BATCH - 10);
      expect(filling(below)).toEqual([]);
      const crossing = await commitOf(traced, 20);
      // The mark read, the two copies and the mark's move; the copies wrote every event so far.
      expect(filling(crossing)).toHaveLength(4);
      expect(filling(crossing).map((s) => s.rowsWritten)).toEqual([
        0,
        AUDIT_FILTER_BATCH + 10,
        AUDIT_FILTER_BATCH + 10,
        1,
      ]);
      expect(filling(await commitOf(traced, 20))).toEqual([]);
      const expected = Array.from({ length: AUDIT_FILTER_BATCH + 30 }, (_, i) => i + 1).filter(
        (seq) => (seq - 1) % 50 === 7,
      );
      expect(await seqsOf(traced.store, 'agent:7')).toEqual(expected);
    });
  },
);
