import { createFakeClock } from '@gatehouse/core';
import { describe, expect, it } from 'vitest';
import { createAttemptLimiter } from './login-limiter.js';

describe('createAttemptLimiter', () => {
  it('allows attempts up to the limit and refuses the next one', () => {
    const clock = createFakeClock();
    const limiter = createAttemptLimiter({ limit: 3, windowMs: 60_000, now: clock.now });
    expect([1, 2, 3].map(() => limiter.take(['name:ada']))).toEqual([true, true, true]);
    expect(limiter.take(['name:ada'])).toBe(false);
  });

  it('allows attempts again once the window has slid past them', () => {
    const clock = createFakeClock();
    const limiter = createAttemptLimiter({ limit: 2, windowMs: 60_000, now: clock.now });
    limiter.take(['k']);
    clock.advance(30_000);
    limiter.take(['k']);
    expect(limiter.take(['k'])).toBe(false);
    clock.advance(30_001);
    expect(limiter.take(['k'])).toBe(true);
  });

  it('refuses when any one key is at its limit and records nothing for the others', () => {
    const clock = createFakeClock();
    const limiter = createAttemptLimiter({ limit: 1, windowMs: 60_000, now: clock.now });
    expect(limiter.take(['ip:1', 'name:a'])).toBe(true);
    expect(limiter.take(['ip:1', 'name:b'])).toBe(false);
    expect(limiter.take(['ip:2', 'name:b'])).toBe(true);
  });

  it('forgets the oldest keys past its key budget', () => {
    const clock = createFakeClock();
    const limiter = createAttemptLimiter({ limit: 1, windowMs: 60_000, now: clock.now, maxKeys: 2 });
    limiter.take(['a']);
    limiter.take(['b']);
    limiter.take(['c']);
    expect(limiter.take(['a'])).toBe(true);
    expect(limiter.take(['c'])).toBe(false);
  });
});
