import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.js';

/** Sends `count` requests at `times` (ms); returns how many went ahead. */
function admitted(limit: { perSecond: number; burst: number }, times: number[]): number {
  const limiter = createRateLimiter(limit);
  let passed = 0;
  for (const at of times) {
    if (limiter.waitMs('k', at) > 0) continue;
    limiter.take('k', at);
    passed++;
  }
  return passed;
}

describe('createRateLimiter', () => {
  it('lets the burst through at once, then one per 1/perSecond', () => {
    const limiter = createRateLimiter({ perSecond: 2, burst: 3 });
    for (let i = 0; i < 3; i++) {
      expect(limiter.waitMs('a', 0)).toBe(0);
      limiter.take('a', 0);
    }
    expect(limiter.waitMs('a', 0)).toBe(500);
    expect(limiter.waitMs('a', 499)).toBe(2);
    expect(limiter.waitMs('a', 500)).toBe(0);
    expect(limiter.waitMs('b', 0)).toBe(0);
  });

  it('never admits more than burst + perSecond × elapsed, and never refuses a caller within it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 300 }),
        (perSecond, burst, gaps) => {
          const times: number[] = [];
          let at = 0;
          for (const gap of gaps) {
            at += gap;
            times.push(at);
          }
          const elapsed = (times.at(-1) as number) - (times[0] as number);
          const passed = admitted({ perSecond, burst }, times);
          expect(passed).toBeLessThanOrEqual(burst + Math.floor((elapsed * perSecond) / 1000));
          expect(passed).toBeGreaterThanOrEqual(Math.min(times.length, burst));
        },
      ),
    );
  });

  it('never limits when perSecond is 0', () => {
    expect(
      admitted(
        { perSecond: 0, burst: 1 },
        Array.from({ length: 1000 }, () => 0),
      ),
    ).toBe(1000);
  });

  it('forgets the least recently used keys past maxKeys', () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1 }, 2);
    limiter.take('a', 0);
    limiter.take('b', 0);
    limiter.take('c', 0);
    expect(limiter.waitMs('a', 0)).toBe(0);
    expect(limiter.waitMs('c', 0)).toBe(1000);
  });
});
