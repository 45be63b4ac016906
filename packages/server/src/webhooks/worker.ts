import { randomUUID } from 'node:crypto';
import type { ClaimedWebhookDelivery, WebhookRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../context.js';
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
export interface WebhookWorker {
  /** Polls every `config.webhookPollIntervalMs` and whenever a local commit queues an event. */
  start(): void;
  /** Looks for work now. */
  wake(): void;
  /** Stops polling, cuts attempts in flight short (their claims are given back) and waits for them. */
  stop(): Promise<void>;
}

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

/** Creates the worker; the webhook service starts it with the app and stops it on close. */
export function createWebhookWorker(ctx: AppContext): WebhookWorker {
  const { config, log } = ctx;
  const node = randomUUID();
  const inFlight = new Set<Promise<void>>();
  let shutdown = new AbortController();
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let again = false;
  let unsubscribe: (() => void) | null = null;

  const retryPolicy = {
    maxAttempts: config.webhookMaxAttempts,
    baseMs: config.webhookBackoffBaseMs,
    maxMs: config.webhookBackoffMaxMs,
  };

  function send(delivery: ClaimedWebhookDelivery, webhook: WebhookRecord | null, now: number) {
    if (webhook === null) return Promise.resolve(GONE);
    return sendWebhook({
      url: webhook.url,
      body: delivery.payload,
      headers: headersFor(webhook, delivery, now),
      timeoutMs: config.webhookTimeoutMs,
      signal: shutdown.signal,
    });
  }

  async function attempt({ delivery, webhook }: Claimed): Promise<void> {
    const startedAt = ctx.clock.now();
    const response = await send(delivery, webhook, startedAt);
    const token = delivery.claimToken;
    if (response.interrupted) {
      await ctx.store.transaction((tx) => tx.releaseWebhookDelivery(delivery.id, token));
      return;
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
  }

  function track(claimed: Claimed): void {
    const done: Promise<void> = attempt(claimed)
      .catch((error: unknown) => {
        // The claim runs out and this node or another tries again: at least once still holds.
        log.error({ err: error, deliveryId: claimed.delivery.id }, 'webhook attempt could not be recorded');
      })
      .finally(() => {
        inFlight.delete(done);
        wake();
      });
    inFlight.add(done);
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

  async function work(): Promise<void> {
    // Due times are the database's (tx.now), so the cheap look-ahead uses the database's clock too.
    const dueBy = (await ctx.store.databaseNow()) + LOOKAHEAD_MS;
    if (!(await ctx.store.read((tx) => tx.hasWebhookWork(dueBy)))) return;
    while (running && (await dispatchOutbox(ctx)) === OUTBOX_BATCH) {
      // a full batch: there may be more
    }
    const free = config.webhookConcurrency - inFlight.size;
    if (!running || free <= 0) return;
    for (const claimed of await claimDue(free)) track(claimed);
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(tick, config.webhookPollIntervalMs);
    timer.unref();
  }

  function tick(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    round = work()
      .catch((error: unknown) => log.warn({ err: error }, 'webhook delivery round failed; retrying'))
      .finally(() => {
        round = null;
        if (again && running) {
          again = false;
          tick();
        } else schedule();
      });
  }

  function wake(): void {
    if (!running) return;
    if (round !== null) again = true;
    else tick();
  }

  return {
    start() {
      if (running) return;
      running = true;
      shutdown = new AbortController();
      unsubscribe = ctx.outbox.subscribe(wake);
      tick();
    },
    wake,
    async stop() {
      running = false;
      unsubscribe?.();
      unsubscribe = null;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      shutdown.abort();
      await round;
      await Promise.all([...inFlight]);
    },
  };
}
