import type { Gate } from 'gatehouse-hitl-core';
import { checkStreamEventData } from 'gatehouse-hitl-protocol';
import type {
  AuditInput,
  AuditRepo,
  NotificationsRepo,
  StoreTx,
  StreamEvent,
  UnitOptions,
  WebhooksRepo,
} from 'gatehouse-hitl-store';
import type { AppContext } from '../context.js';
import { recordOutbox } from '../webhooks/outbox.js';
import { notifiesAnyone } from './notifications/channels.js';
import { recordNotificationTrigger } from './notifications/triggers.js';

/** A transaction as services write through it: the audit trail only through `audit`, so webhooks hear of it. */
export type WorkTx = Omit<StoreTx, 'appendAudit'>;

/** A transaction's repositories (`Tx`, narrowed to what the caller uses) and its one audit path. */
export interface AuditedTx<Tx = WorkTx> {
  tx: Tx;
  /** Appends to the audit trail; an event webhooks subscribe to also goes to the outbox, in this transaction. */
  audit(event: AuditInput): Promise<void>;
}

/** What a unit of work may do besides writing rows: audit and announce. */
export interface CommitTools extends AuditedTx {
  /** Appends a stream event now; listeners are woken only after the commit. */
  emit(event: Omit<StreamEvent, 'seq' | 'at'>): Promise<void>;
}

/** What an audited change queued, so that only the worker with new work is woken. */
export interface Queued {
  webhook: boolean;
  notice: boolean;
}

/**
 * Appends `event` to the audit trail and queues the webhook event and (when `notify`, that is when a
 * channel is configured) the notification it announces, if any.
 */
export async function recordAudit(
  tx: AuditRepo & WebhooksRepo & NotificationsRepo,
  event: AuditInput,
  notify = true,
): Promise<Queued> {
  const audited = await tx.appendAudit(event);
  const webhook = await recordOutbox(tx, audited);
  // People hear of gate changes through the notification queue, filled in the same transaction.
  const notice = notify && (await recordNotificationTrigger(tx, audited));
  return { webhook, notice };
}

/**
 * The audit path for a transaction `commit()` did not open (a command on the server host): events
 * reach the outbox the same way, and the delivery workers find them when they next poll.
 */
export function auditedTx(tx: StoreTx): AuditedTx {
  return {
    tx,
    audit: async (event) => {
      await recordAudit(tx, event);
    },
  };
}

/**
 * Has `tx` note in `written` the last document each gate was inserted or updated with. The two
 * methods become the unit's own: a fresh object per unit as a prototype would cost every call.
 */
function noteGateWrites(tx: StoreTx, written: Map<string, Gate>): StoreTx {
  const { insertGate, updateGate } = tx;
  tx.insertGate = async (gate) => {
    await insertGate.call(tx, gate);
    written.set(gate.id, gate);
  };
  tx.updateGate = async (gate, expectedVersion, options) => {
    const updated = await updateGate.call(tx, gate, expectedVersion, options);
    if (updated) written.set(gate.id, gate);
    return updated;
  };
  return tx;
}

/**
 * Runs `work` in one transaction with its audit events and stream events, then wakes the
 * bus and each worker that has new work. Nothing is announced for a unit of work that rolled back;
 * a `replayable` one (see UnitOptions) may run twice, and only its last run is announced.
 */
export async function commit<T>(
  ctx: AppContext,
  work: (tools: CommitTools) => Promise<T>,
  unit: UnitOptions = {},
): Promise<T> {
  const emitted: StreamEvent[] = [];
  const gatesWritten = new Map<string, Gate>();
  const notify = notifiesAnyone(ctx);
  const queued: Queued = { webhook: false, notice: false };
  const result = await ctx.store.transaction(async (tx) => {
    emitted.length = 0;
    gatesWritten.clear();
    queued.webhook = false;
    queued.notice = false;
    return work({
      tx: noteGateWrites(tx, gatesWritten),
      audit: async (event) => {
        const { webhook, notice } = await recordAudit(tx, event, notify);
        queued.webhook ||= webhook;
        queued.notice ||= notice;
      },
      emit: async (event) => {
        if (ctx.config.checkStreamEvents) checkStreamEventData(event.type, event.data);
        emitted.push(await tx.appendStreamEvent(event));
      },
    });
  }, unit);
  for (const event of emitted) {
    const gate = event.gateId === null ? undefined : gatesWritten.get(event.gateId);
    if (gate !== undefined) ctx.committedGates.note(event, gate);
    ctx.bus.publish(event);
  }
  if (queued.webhook) ctx.outbox.notify();
  if (queued.notice) ctx.notices.notify();
  return result;
}
