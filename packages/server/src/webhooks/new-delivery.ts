import type { IdGenerator } from 'gatehouse-hitl-core';
import type { WebhookDeliveryRecord } from 'gatehouse-hitl-store';

/** A delivery of one event to one webhook, due at once. */
export function newDelivery(
  ids: IdGenerator,
  input: {
    webhookId: string;
    eventId: string;
    eventType: string;
    payload: string;
    now: number;
    redeliveryOf?: string;
  },
): WebhookDeliveryRecord {
  return {
    id: ids.next('whd'),
    webhookId: input.webhookId,
    eventId: input.eventId,
    eventType: input.eventType,
    payload: input.payload,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: input.now,
    claimedUntil: null,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    redeliveryOf: input.redeliveryOf ?? null,
    createdAt: input.now,
    updatedAt: input.now,
  };
}
