/** A registered webhook: events of the chosen types are POSTed to `url`, signed with `secret`. */
export interface WebhookRecord {
  id: string;
  url: string;
  /** Event types it receives, e.g. `gate.opened`. */
  events: string[];
  description: string | null;
  /** A disabled webhook gets no new deliveries. */
  enabled: boolean;
  /** The HMAC key deliveries are signed with: kept as given, because signing needs the key itself. */
  secret: string;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

/** A side effect waiting to be handed out, written in the same transaction as the change it announces. */
export interface OutboxEvent {
  /** Stable event id: the same on every attempt and every redelivery. */
  id: string;
  type: string;
  /** The JSON document subscribers receive, exactly as sent. */
  payload: string;
  createdAt: number;
}

/** `pending` waits for its next attempt, `succeeded` was acknowledged with a 2xx, `dead` ran out of attempts. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'dead';

/** One event on its way to one webhook. */
export interface WebhookDeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: WebhookDeliveryStatus;
  /** Attempts started so far. */
  attempts: number;
  /** When the next attempt is due; null once the delivery has ended. */
  nextAttemptAt: number | null;
  /** A node holds the delivery until then (database time); null when nobody does. */
  claimedUntil: number | null;
  lastAttemptAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The delivery this one sends again, when it was made on demand. */
  redeliveryOf: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What one attempt to deliver got back. */
export interface WebhookAttemptRecord {
  deliveryId: string;
  /** 1 for the first attempt of the delivery. */
  attempt: number;
  startedAt: number;
  durationMs: number | null;
  /** The HTTP status; null when no response came. */
  statusCode: number | null;
  /** The start of the response body. */
  responseExcerpt: string | null;
  error: string | null;
}

/** A delivery claimed for one attempt: `attempts` is this attempt's number. */
export interface ClaimedWebhookDelivery extends WebhookDeliveryRecord {
  claimToken: string;
}

/** Deliveries of one webhook, newest first. */
export interface WebhookDeliveryFilter {
  webhookId: string;
  status?: WebhookDeliveryStatus;
  limit?: number;
  cursor?: string;
}

/** How an attempt leaves its delivery. */
export type WebhookAttemptOutcome =
  | { status: 'succeeded' }
  | { status: 'pending'; nextAttemptAt: number }
  | { status: 'dead' };
