import type { AuditEvent } from 'gatehouse-hitl-core';
import type { WebhooksRepo } from 'gatehouse-hitl-store';
import type { AppContext } from '../context.js';
import { outboxEventOf } from './events.js';

/**
 * Queues the webhook event an audited change announces, in the change's own transaction, so the
 * event exists exactly when the change does. True when something was queued.
 */
export async function recordOutbox(tx: WebhooksRepo, audited: AuditEvent): Promise<boolean> {
  const event = outboxEventOf(audited);
  return event !== null && tx.insertOutboxEvent(event);
}

const listeners = new WeakMap<AppContext, Set<() => void>>();

/** Calls `listener` after every local commit that queued outbox events; returns the unsubscribe. */
export function onOutboxCommit(ctx: AppContext, listener: () => void): () => void {
  const set = listeners.get(ctx) ?? new Set();
  listeners.set(ctx, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** Wakes this node's delivery worker; other nodes find the events when they poll. */
export function notifyOutboxCommit(ctx: AppContext): void {
  for (const listener of listeners.get(ctx) ?? []) listener();
}
