import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_BACKOFF, loginBackoffMs } from './login-backoff.js';

const policy = { ...DEFAULT_LOGIN_BACKOFF, freeFailures: 10 };

describe('loginBackoffMs', () => {
  it('costs nothing for the free failures, then waits 1 s doubling to at most 5 minutes', () => {
    expect([0, 9, 10, 11, 12, 18, 19, 50].map((n) => loginBackoffMs(n, policy))).toEqual([
      0, 0, 1000, 2000, 4000, 256_000, 300_000, 300_000,
    ]);
  });

  it('never waits longer than the cap and never shrinks with more failures', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 3_600_000 }),
        (failures, freeFailures, baseDelayMs, maxDelayMs) => {
          const p = { freeFailures, baseDelayMs, maxDelayMs };
          const now = loginBackoffMs(failures, p);
          expect(now).toBeGreaterThanOrEqual(0);
          expect(now).toBeLessThanOrEqual(maxDelayMs);
          expect(loginBackoffMs(failures + 1, p)).toBeGreaterThanOrEqual(now);
        },
      ),
    );
  });
});
