import type { WebhookAttemptOutcome } from 'gatehouse-hitl-store';

/** How long failed attempts wait before the next one. */
export interface RetrySchedule {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait after attempt `failedAttempt` (1 for the first) failed: base × 2^(n-1), capped at
 * `maxMs`, half of it fixed and half random ("equal jitter") so receivers that come back are not
 * hit by every delivery at the same moment.
 */
export function retryDelayMs(failedAttempt: number, schedule: RetrySchedule, random = Math.random): number {
  const exponent = Math.min(Math.max(failedAttempt, 1) - 1, 40);
  const full = Math.min(schedule.maxMs, schedule.baseMs * 2 ** exponent);
  return Math.round(full / 2 + (random() * full) / 2);
}

/** Where a delivery goes after attempt `attempt` (1-based) at `now`: done, retried later, or dead. */
export function outcomeAfter(
  ok: boolean,
  attempt: number,
  now: number,
  policy: RetrySchedule & { maxAttempts: number },
): WebhookAttemptOutcome {
  if (ok) return { status: 'succeeded' };
  if (attempt >= policy.maxAttempts) return { status: 'dead' };
  return { status: 'pending', nextAttemptAt: now + retryDelayMs(attempt, policy) };
}
