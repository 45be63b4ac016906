import type { AuditEvent } from 'gatehouse-hitl-core';
import type { WebhooksRepo } from 'gatehouse-hitl-store';
import { outboxEventOf, webhookEventTypeOf } from './events.js';

/**
 * Queues the webhook event an audited change announces, in the change's own transaction, so the
 * event exists exactly when the change does. True when something was queued.
 */
export async function recordOutbox(tx: WebhooksRepo, audited: AuditEvent): Promise<boolean> {
  const type = webhookEventTypeOf(audited.kind);
  if (type === null || !(await tx.webhooksMayHear(type))) return false;
  const event = outboxEventOf(audited);
  return event !== null && tx.insertOutboxEvent(event);
}

/** Tells one of this node's workers that a local commit queued its work; other nodes find it when they poll. */
export interface OutboxSignal {
  /** Calls `listener` after every local commit that queued this worker's work; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  notify(): void;
}

/** The signal one app's commits and one of its workers share. */
export function createOutboxSignal(): OutboxSignal {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify() {
      for (const listener of listeners) listener();
    },
  };
}
