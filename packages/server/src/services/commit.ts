import type { AuditInput, StoreTx, StreamEvent } from 'gatehouse-hitl-store';
import type { AppContext } from '../context.js';
import { notifyOutboxCommit, recordOutbox } from '../webhooks/outbox.js';

/** What a unit of work may do besides writing rows: audit and announce. */
export interface CommitTools {
  tx: StoreTx;
  /** Appends to the audit trail; an event webhooks subscribe to also goes to the outbox, in this transaction. */
  audit(event: AuditInput): Promise<void>;
  /** Appends a stream event now; listeners are woken only after the commit. */
  emit(event: Omit<StreamEvent, 'seq' | 'at'>): Promise<void>;
}

/**
 * Runs `work` in one transaction with its audit events and stream events, then wakes the
 * bus. Nothing is announced for a unit of work that rolled back.
 */
export async function commit<T>(ctx: AppContext, work: (tools: CommitTools) => Promise<T>): Promise<T> {
  const emitted: StreamEvent[] = [];
  let outboxed = false;
  const result = await ctx.store.transaction(async (tx) => {
    emitted.length = 0;
    outboxed = false;
    return work({
      tx,
      audit: async (event) => {
        if (await recordOutbox(tx, await tx.appendAudit(event))) outboxed = true;
      },
      emit: async (event) => {
        emitted.push(await tx.appendStreamEvent(event));
      },
    });
  });
  for (const event of emitted) ctx.bus.publish(event);
  if (outboxed) notifyOutboxCommit(ctx);
  return result;
}
