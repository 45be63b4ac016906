import { createFakeClock } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { createLoginThrottle, passwordBuckets, reauthBuckets } from './login-limiter.js';

describe('createLoginThrottle', () => {
  it('lets the free attempts through, then waits 1 s doubling per attempt', () => {
    const clock = createFakeClock();
    const throttle = createLoginThrottle({ now: clock.now });
    const buckets = passwordBuckets('ada', '10.0.0.1', 3);
    expect([1, 2].map(() => throttle.take(buckets))).toEqual([0, 0]);
    expect(throttle.take(buckets)).toBe(0);
    expect(throttle.take(buckets)).toBe(1000);
    clock.advance(1000);
    expect(throttle.take(buckets)).toBe(0);
    expect(throttle.take(buckets)).toBe(2000);
  });

  it('counts nothing while closed, so hammering a closed bucket does not lengthen the wait', () => {
    const clock = createFakeClock();
    const throttle = createLoginThrottle({ now: clock.now });
    const buckets = passwordBuckets('ada', '10.0.0.1', 1);
    throttle.take(buckets);
    for (let i = 0; i < 100; i++) expect(throttle.take(buckets)).toBe(1000);
  });

  it('never keeps a bucket closed for longer than five minutes', () => {
    const clock = createFakeClock();
    const throttle = createLoginThrottle({ now: clock.now });
    const buckets = passwordBuckets('ada', '10.0.0.1', 1);
    const waits: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const wait = throttle.take(buckets);
      waits.push(wait);
      clock.advance(wait);
    }
    expect(Math.max(...waits)).toBe(300_000);
  });

  it('keeps attempts at one address away from the same name at another address', () => {
    const clock = createFakeClock();
    const throttle = createLoginThrottle({ now: clock.now });
    for (let i = 0; i < 50; i++) clock.advance(throttle.take(passwordBuckets('ada', '10.6.6.6', 1)));
    expect(throttle.take(passwordBuckets('ada', '10.0.0.1', 1))).toBe(0);
  });

  it('takes back a refunded attempt and forgets a cleared bucket', () => {
    const clock = createFakeClock();
    const throttle = createLoginThrottle({ now: clock.now });
    const [nameAtIp, ip] = passwordBuckets('ada', '10.0.0.1', 1);
    if (!nameAtIp || !ip) throw new Error('two buckets expected');
    expect(throttle.take([nameAtIp, ip])).toBe(0);
    throttle.clear([nameAtIp.key]);
    throttle.refund([ip.key]);
    expect(throttle.take([nameAtIp, ip])).toBe(0);
  });

  it("keeps one person's wrong password confirmations away from everyone else's", () => {
    const clock = createFakeClock();
    const throttle = createLoginThrottle({ now: clock.now });
    for (let i = 0; i < 5; i++) throttle.take(reauthBuckets('user_a', 1));
    expect(throttle.take(reauthBuckets('user_a', 1))).toBeGreaterThan(0);
    expect(throttle.take(reauthBuckets('user_b', 1))).toBe(0);
  });

  it('forgets the oldest buckets past its key budget', () => {
    const clock = createFakeClock();
    const throttle = createLoginThrottle({ now: clock.now, maxKeys: 2 });
    const bucket = (key: string) => [
      { key, policy: { freeFailures: 1, baseDelayMs: 1000, maxDelayMs: 5000 } },
    ];
    throttle.take(bucket('a'));
    throttle.take(bucket('b'));
    throttle.take(bucket('c'));
    expect(throttle.take(bucket('a'))).toBe(0);
    expect(throttle.take(bucket('c'))).toBe(1000);
  });
});
