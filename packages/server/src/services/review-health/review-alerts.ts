import { createHash } from 'node:crypto';
import type { ReviewHealth } from 'gatehouse-hitl-protocol';
import type { NotificationChannelName, StoreTx } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { configuredChannels } from '../notifications/channels.js';
import { siteUrlOf } from '../notifications/notice.js';
import { digestOf, type ReviewNoticeContent, stampingAlertOf } from './review-notices.js';

/** Triggers of notices about review itself; the notification worker delivers them without a gate. */
export const REVIEW_TRIGGERS = { alert: 'review.rubber_stamping', digest: 'review.digest' } as const;
export type ReviewTrigger = (typeof REVIEW_TRIGGERS)[keyof typeof REVIEW_TRIGGERS];

const DIGEST_DAYS = 7;
const ALERT_DAYS = 30;

/** Sends the rubber-stamping alert and the periodic digest to admins through the notification channels. */
export interface ReviewAlerts {
  /** Queues an alert for each newly flagged pattern; returns how many patterns were new. */
  checkOnce(): Promise<number>;
  /** Queues this period's digest unless it was queued already; returns whether it was queued now. */
  digestOnce(): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
}

function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 24);
}

async function admins(tx: StoreTx, configured: readonly NotificationChannelName[]) {
  const people = (await tx.listUsers()).filter((u) => u.role === 'admin' && !u.disabled);
  const routes: { userId: string; channel: NotificationChannelName }[] = [];
  for (const person of people) {
    const chosen = (await tx.getNotificationPreference(person.id))?.channels ?? configured;
    for (const channel of configured)
      if (chosen.includes(channel)) routes.push({ userId: person.id, channel });
  }
  return routes;
}

export function createReviewAlerts(
  ctx: AppContext,
  report: (days: number) => Promise<ReviewHealth>,
): ReviewAlerts {
  const settings = ctx.config.reviewHealth;
  const configured = configuredChannels(ctx);
  const url = `${siteUrlOf(ctx)}/review-health`;
  const timers = new Set<NodeJS.Timeout>();
  let current: Promise<unknown> = Promise.resolve();
  let running = false;

  /** Queues one notice per admin and channel under `key`; a key already queued (by any node) is left alone. */
  async function queue(trigger: ReviewTrigger, key: string, content: ReviewNoticeContent): Promise<boolean> {
    if (configured.length === 0) return false;
    const queued = await ctx.store.transaction(async (tx) => {
      if ((await tx.listNotifications({ gateId: key, limit: 1 })).items.length > 0) return false;
      for (const { userId, channel } of await admins(tx, configured)) {
        await tx.insertNotification({
          id: `ntf_${keyHash(`${key}\n${userId}\n${channel}`)}`,
          triggerId: key,
          trigger,
          gateId: key,
          userId,
          channel,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: tx.now,
          claimedUntil: null,
          lastError: null,
          ref: null,
          data: JSON.stringify(content),
          createdAt: tx.now,
          updatedAt: tx.now,
          sentAt: null,
        });
      }
      return true;
    });
    if (queued) ctx.notices.notify();
    return queued;
  }

  async function checkOnce(): Promise<number> {
    const health = await report(ALERT_DAYS);
    let fresh = 0;
    for (const flag of health.flags) {
      // One alert per reviewer and newest flagged gate: the same pattern is not sent twice.
      const key = `review:${flag.reviewer}:${flag.gateIds[0] ?? 'none'}`;
      if (await queue(REVIEW_TRIGGERS.alert, key, stampingAlertOf(flag, url))) fresh += 1;
    }
    return fresh;
  }

  async function digestOnce(): Promise<boolean> {
    const period = settings?.digestIntervalMs || DIGEST_DAYS * 86_400_000;
    const key = `review-digest:${Math.floor(ctx.clock.now() / period) * period}`;
    const days = Math.max(1, Math.round(period / 86_400_000));
    return queue(REVIEW_TRIGGERS.digest, key, digestOf(await report(days), url));
  }

  function every(intervalMs: number, work: () => Promise<unknown>, what: string): void {
    if (intervalMs <= 0) return;
    const tick = () => {
      current = current
        .then(work)
        .catch((err: unknown) => ctx.log.warn({ err }, `review health ${what} failed; retrying`))
        .finally(() => {
          if (!running) return;
          const timer = setTimeout(tick, intervalMs);
          timer.unref();
          timers.add(timer);
        });
    };
    const timer = setTimeout(tick, Math.min(intervalMs, 60_000));
    timer.unref();
    timers.add(timer);
  }

  return {
    checkOnce,
    digestOnce,
    start() {
      // Without a channel nobody can be told, so nothing is computed for them.
      if (running || settings === undefined || configured.length === 0) return;
      running = true;
      every(settings.checkIntervalMs, checkOnce, 'check');
      // The digest key is the period, so checking often sends it once per period.
      every(Math.min(settings.digestIntervalMs, 3_600_000), digestOnce, 'digest');
    },
    async stop() {
      running = false;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await current;
    },
  };
}
