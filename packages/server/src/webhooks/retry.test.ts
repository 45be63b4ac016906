import { describe, expect, it } from 'vitest';
import { outcomeAfter, retryDelayMs } from './retry.js';

const schedule = { baseMs: 30_000, maxMs: 3_600_000 };

describe('retryDelayMs', () => {
  it.each([
    [1, 15_000, 30_000],
    [2, 30_000, 60_000],
    [3, 60_000, 120_000],
    [7, 960_000, 1_920_000],
    [8, 1_800_000, 3_600_000],
    [20, 1_800_000, 3_600_000],
  ])('waits between half and all of base × 2^(n-1) after failed attempt %i, capped', (attempt, low, high) => {
    expect(retryDelayMs(attempt, schedule, () => 0)).toBe(low);
    expect(retryDelayMs(attempt, schedule, () => 1)).toBe(high);
    const jittered = retryDelayMs(attempt, schedule);
    expect(jittered).toBeGreaterThanOrEqual(low);
    expect(jittered).toBeLessThanOrEqual(high);
  });

  it('spreads retries of deliveries that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(4, schedule)));
    expect(delays.size).toBeGreaterThan(40);
  });
});

describe('outcomeAfter', () => {
  const policy = { ...schedule, maxAttempts: 3 };

  it('ends a delivery at its first 2xx, whatever the attempt', () => {
    expect(outcomeAfter(true, 3, 1_000, policy)).toEqual({ status: 'succeeded' });
  });

  it('schedules the next attempt from now while attempts remain, and dead-letters after the last', () => {
    const next = outcomeAfter(false, 2, 1_000, policy);
    expect(next.status).toBe('pending');
    if (next.status === 'pending') {
      expect(next.nextAttemptAt).toBeGreaterThanOrEqual(1_000 + 30_000);
      expect(next.nextAttemptAt).toBeLessThanOrEqual(1_000 + 60_000);
    }
    expect(outcomeAfter(false, 3, 1_000, policy)).toEqual({ status: 'dead' });
  });
});
