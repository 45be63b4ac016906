import { randomUUID } from 'node:crypto';
import type { ClaimedNotification, NotificationOutcome } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { deliverySpan } from '../../telemetry/delivery-spans.js';
import { retryDelayMs } from '../../webhooks/retry.js';
import { createOutboxPoller, type OutboxPoller, type PollRound } from '../outbox-poller.js';
import type { ChannelDelivery, NotificationChannel } from './channel.js';
import { configuredChannels } from './channels.js';
import { dispatchTriggers, queueTimeoutWarnings } from './dispatch.js';
import { noticeOf, reviewNoticeOf } from './notice.js';

/** Two gate changes' notices to 20 people: while one is sent, the next waits for a free connection. */
const CONCURRENCY = 40;
/**
 * Outcomes recorded within this long of each other share one transaction: on a durable store a
 * commit per notice costs more than sending it, and under load those commits hold up everything else.
 */
const RECORD_WINDOW_MS = 25;
/** A claim outlives the slowest SMTP or Slack call, so a live attempt is never sent twice. */
const LEASE_MS = 120_000;
const BACKOFF_MAX_MS = 3_600_000;

/** Delivers notifications through their channels: any node may claim any due notice. */
export type NotificationWorker = OutboxPoller;

function outcomeOf(
  delivery: ChannelDelivery,
  attempt: number,
  now: number,
  policy: { maxAttempts: number; backoffBaseMs: number },
): NotificationOutcome {
  if (delivery.ok) return { status: 'sent', ref: delivery.ref };
  if (!delivery.retryable || attempt >= policy.maxAttempts)
    return { status: 'failed', error: delivery.error };
  const backoff = retryDelayMs(attempt, { baseMs: policy.backoffBaseMs, maxMs: BACKOFF_MAX_MS });
  // A rate limit's Retry-After is honoured (never past the longest backoff), so the next attempt is not refused again.
  const wait = Math.max(backoff, Math.min(delivery.retryAfterMs ?? 0, BACKOFF_MAX_MS));
  return { status: 'pending', nextAttemptAt: now + wait, error: delivery.error };
}

interface PendingOutcome {
  claimed: ClaimedNotification;
  delivery: ChannelDelivery;
  resolve(outcome: NotificationOutcome): void;
  reject(error: unknown): void;
}

/** Records each attempt's outcome, batching those that end close together into one transaction. */
function createOutcomeRecorder(
  ctx: AppContext,
  policy: { maxAttempts: number; backoffBaseMs: number },
): (claimed: ClaimedNotification, delivery: ChannelDelivery) => Promise<NotificationOutcome> {
  let queued: PendingOutcome[] = [];
  let scheduled = false;

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = queued;
    queued = [];
    try {
      const outcomes = await ctx.store.transaction(async (tx) => {
        const recorded: NotificationOutcome[] = [];
        for (const { claimed, delivery } of batch) {
          const next = outcomeOf(delivery, claimed.attempts, tx.now, policy);
          await tx.finishNotification(claimed.id, claimed.claimToken, next);
          recorded.push(next);
        }
        return recorded;
      });
      for (const [i, pending] of batch.entries()) pending.resolve(outcomes[i] as NotificationOutcome);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }

  return (claimed, delivery) =>
    new Promise((resolve, reject) => {
      queued.push({ claimed, delivery, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      setTimeout(() => void flush(), RECORD_WINDOW_MS);
    });
}

export function createNotificationWorker(
  ctx: AppContext,
  channels: NotificationChannel[],
): NotificationWorker {
  const { log } = ctx;
  const policy = ctx.config.notifications;
  const node = randomUUID();
  const byKind = new Map(channels.map((channel) => [channel.kind, channel]));
  const configured = configuredChannels(ctx);
  const record = createOutcomeRecorder(ctx, policy);

  async function deliver(claimed: ClaimedNotification): Promise<ChannelDelivery> {
    const channel = byKind.get(claimed.channel);
    if (channel === undefined || !channel.enabled)
      return {
        ok: false,
        error: `the ${claimed.channel} channel is not configured on this server`,
        retryable: false,
      };
    if (claimed.trigger.startsWith('review.') || claimed.trigger.startsWith('trust.')) {
      const review = await ctx.store.read((tx) => reviewNoticeOf(tx, claimed));
      if (review === null) return { ok: false, error: 'the person is gone', retryable: false };
      if (channel.deliverReview === undefined)
        return {
          ok: false,
          error: `the ${claimed.channel} channel cannot send review notices`,
          retryable: false,
        };
      return channel.deliverReview(review);
    }
    const notice = await ctx.store.read((tx) => noticeOf(ctx, tx, claimed));
    if (notice === null) return { ok: false, error: 'the gate or the person is gone', retryable: false };
    return channel.deliver(notice);
  }

  async function attempt(claimed: ClaimedNotification): Promise<void> {
    const attributes = {
      'gatehouse.notice.id': claimed.id,
      'gatehouse.notice.channel': claimed.channel,
      'gatehouse.notice.trigger': claimed.trigger,
      'gatehouse.notice.attempt': claimed.attempts,
      'gatehouse.gate.id': claimed.gateId,
    };
    await deliverySpan(
      ctx.telemetry,
      'notification delivery',
      attributes,
      () => send(claimed),
      (outcome) => ({
        attributes: { 'gatehouse.notice.outcome': outcome.status },
        ok: outcome.status === 'sent',
      }),
    );
  }

  async function send(claimed: ClaimedNotification): Promise<NotificationOutcome> {
    let delivery: ChannelDelivery;
    try {
      delivery = await deliver(claimed);
    } catch (error) {
      delivery = {
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        retryable: true,
      };
    }
    const outcome = await record(claimed, delivery);
    const facts = { notificationId: claimed.id, channel: claimed.channel, attempt: claimed.attempts };
    if (outcome.status === 'sent') log.debug(facts, 'notification sent');
    else if (outcome.status === 'failed') log.warn({ ...facts, error: outcome.error }, 'notification failed');
    else log.info({ ...facts, error: outcome.error }, 'notification attempt failed; it will be retried');
    return outcome;
  }

  async function prepare(): Promise<boolean> {
    if (configured.length > 0) await queueTimeoutWarnings(ctx);
    const dueBy = await ctx.store.databaseNow();
    return ctx.store.read((tx) => tx.hasNotificationWork(dueBy));
  }

  // Due notices are claimed first, then one batch of triggers is routed: routing never holds up a send.
  async function route(round: PollRound): Promise<void> {
    if ((await dispatchTriggers(ctx)) > 0) round.again();
  }

  return createOutboxPoller<ClaimedNotification>({
    log,
    pollIntervalMs: policy.pollIntervalMs,
    concurrency: CONCURRENCY,
    // Without a channel no gate change queues a notice: only notices left from before are polled for.
    subscribe: configured.length > 0 ? (wake) => ctx.notices.subscribe(wake) : null,
    prepare,
    route,
    claim: (limit) => {
      const token = `${node}:${randomUUID()}`;
      return ctx.store.transaction((tx) => tx.claimNotifications({ limit, leaseMs: LEASE_MS, token }));
    },
    attempt,
    attemptFailed(claimed, error) {
      // The claim runs out and a node tries again.
      log.error({ err: error, notificationId: claimed.id }, 'notification attempt could not be recorded');
    },
    roundFailed: 'notification round failed; retrying',
    onStart: () =>
      log.info({ channels: configured }, 'notifications are delivered on the configured channels only'),
  });
}
