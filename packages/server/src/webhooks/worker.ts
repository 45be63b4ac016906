import { randomUUID } from 'node:crypto';
import type { ClaimedWebhookDelivery, WebhookRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../context.js';
import { createOutboxPoller, type OutboxPoller, type PollRound } from '../services/outbox-poller.js';
import { deliverySpan } from '../telemetry/delivery-spans.js';
import { newDelivery } from './new-delivery.js';
import { outcomeAfter } from './retry.js';
import { sendWebhook, type WebhookResponse } from './send.js';
import { signatureHeader } from './signature.js';

const OUTBOX_BATCH = 100;
/** Work due this soon is claimed now rather than a poll later (the claim itself checks the time). */
const LOOKAHEAD_MS = 1000;
const USER_AGENT = 'Gatehouse-Webhooks/1';

/** A delivery whose webhook disappeared underneath it (deletion removes both, so this is only a guard). */
const GONE: WebhookResponse = {
  ok: false,
  statusCode: null,
  responseExcerpt: null,
  error: 'the webhook is gone',
  durationMs: 0,
  interrupted: false,
};

/** Delivers webhook events from the outbox: any node may claim any due delivery. */
export type WebhookWorker = OutboxPoller;

interface Claimed {
  delivery: ClaimedWebhookDelivery;
  webhook: WebhookRecord | null;
}

/** Hands each queued event to the webhooks subscribed to it, one delivery each, in one transaction. */
async function dispatchOutbox(ctx: AppContext): Promise<number> {
  return ctx.store.transaction(async (tx) => {
    const events = await tx.claimOutboxEvents(OUTBOX_BATCH);
    const subscribers = new Map<string, WebhookRecord[]>();
    for (const event of events) {
      const webhooks = subscribers.get(event.type) ?? (await tx.listWebhooksFor(event.type));
      subscribers.set(event.type, webhooks);
      for (const webhook of webhooks) {
        // A webhook registered after the change did not ask for it.
        if (webhook.createdAt > event.createdAt) continue;
        const input = {
          webhookId: webhook.id,
          eventId: event.id,
          eventType: event.type,
          payload: event.payload,
        };
        await tx.insertWebhookDelivery(newDelivery(ctx.ids, { ...input, now: tx.now }));
      }
    }
    await tx.deleteOutboxEvents(events.map((event) => event.id));
    return events.length;
  });
}

function headersFor(webhook: WebhookRecord, delivery: ClaimedWebhookDelivery, now: number) {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'gatehouse-event-id': delivery.eventId,
    'gatehouse-event-type': delivery.eventType,
    'gatehouse-delivery-id': delivery.id,
    'gatehouse-delivery-attempt': String(delivery.attempts),
    'gatehouse-signature': signatureHeader(webhook.secret, Math.floor(now / 1000), delivery.payload),
  };
}

/** What one attempt came to, for its span. */
interface AttemptResult {
  statusCode: number | null;
  /** delivered, pending (retried later), dead, or interrupted (released for another try). */
  outcome: string;
}

function spanOutcome(result: AttemptResult) {
  const status = result.statusCode === null ? {} : { 'http.response.status_code': result.statusCode };
  return {
    attributes: { 'gatehouse.webhook.outcome': result.outcome, ...status },
    ok: result.outcome === 'delivered',
  };
}

/** Creates the worker; the webhook service starts it with the app and stops it on close. */
export function createWebhookWorker(ctx: AppContext): WebhookWorker {
  const { config, log } = ctx;
  const node = randomUUID();
  const retryPolicy = {
    maxAttempts: config.webhookMaxAttempts,
    baseMs: config.webhookBackoffBaseMs,
    maxMs: config.webhookBackoffMaxMs,
  };

  function send(
    delivery: ClaimedWebhookDelivery,
    webhook: WebhookRecord | null,
    now: number,
    signal: AbortSignal,
  ) {
    if (webhook === null) return Promise.resolve(GONE);
    return sendWebhook({
      url: webhook.url,
      body: delivery.payload,
      headers: headersFor(webhook, delivery, now),
      timeoutMs: config.webhookTimeoutMs,
      signal,
    });
  }

  async function attempt(claimed: Claimed, signal: AbortSignal): Promise<void> {
    const { delivery } = claimed;
    const attributes = {
      'gatehouse.webhook.id': delivery.webhookId,
      'gatehouse.webhook.delivery_id': delivery.id,
      'gatehouse.webhook.event_type': delivery.eventType,
      'gatehouse.webhook.attempt': delivery.attempts,
    };
    await deliverySpan(
      ctx.telemetry,
      'webhook delivery',
      attributes,
      () => deliver(claimed, signal),
      spanOutcome,
    );
  }

  async function deliver({ delivery, webhook }: Claimed, signal: AbortSignal): Promise<AttemptResult> {
    const startedAt = ctx.clock.now();
    const response = await send(delivery, webhook, startedAt, signal);
    const token = delivery.claimToken;
    if (response.interrupted) {
      await ctx.store.transaction((tx) => tx.releaseWebhookDelivery(delivery.id, token));
      return { statusCode: null, outcome: 'interrupted' };
    }
    const { ok, statusCode, responseExcerpt, error, durationMs } = response;
    const record = { deliveryId: delivery.id, attempt: delivery.attempts, startedAt, durationMs };
    const outcome = await ctx.store.transaction(async (tx) => {
      const next = outcomeAfter(ok, delivery.attempts, tx.now, retryPolicy);
      const result = { ...record, statusCode, responseExcerpt, error };
      await tx.finishWebhookAttempt({ token, attempt: result, outcome: next });
      return next;
    });
    const facts = { deliveryId: delivery.id, webhookId: delivery.webhookId, attempt: delivery.attempts };
    if (ok) log.debug(facts, 'webhook delivered');
    else if (outcome.status === 'dead')
      log.warn({ ...facts, statusCode, error }, 'webhook delivery dead-lettered');
    else log.info({ ...facts, statusCode, error }, 'webhook attempt failed; it will be retried');
    return { statusCode, outcome: ok ? 'delivered' : outcome.status };
  }

  async function claimDue(limit: number): Promise<Claimed[]> {
    return ctx.store.transaction(async (tx) => {
      const deliveries = await tx.claimWebhookDeliveries({
        limit,
        leaseMs: config.webhookLeaseMs,
        token: `${node}:${randomUUID()}`,
        maxAttempts: config.webhookMaxAttempts,
      });
      const claimed: Claimed[] = [];
      for (const delivery of deliveries)
        claimed.push({ delivery, webhook: await tx.getWebhook(delivery.webhookId) });
      return claimed;
    });
  }

  async function prepare(round: PollRound): Promise<boolean> {
    // Due times are the database's (tx.now), so the cheap look-ahead uses the database's clock too.
    const dueBy = (await ctx.store.databaseNow()) + LOOKAHEAD_MS;
    if (!(await ctx.store.read((tx) => tx.hasWebhookWork(dueBy)))) return false;
    while (round.running && (await dispatchOutbox(ctx)) === OUTBOX_BATCH) {
      // a full batch: there may be more
    }
    return true;
  }

  return createOutboxPoller<Claimed>({
    log,
    pollIntervalMs: config.webhookPollIntervalMs,
    concurrency: config.webhookConcurrency,
    subscribe: (wake) => ctx.outbox.subscribe(wake),
    prepare,
    claim: claimDue,
    attempt,
    attemptFailed(claimed, error) {
      // The claim runs out and this node or another tries again: at least once still holds.
      log.error({ err: error, deliveryId: claimed.delivery.id }, 'webhook attempt could not be recorded');
    },
    roundFailed: 'webhook delivery round failed; retrying',
  });
}
