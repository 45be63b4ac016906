import { DEFAULT_LOGIN_BACKOFF, type LoginBackoffPolicy, loginBackoffMs } from 'gatehouse-hitl-core';

/** Where a sign-in attempt is counted: each bucket backs off on its own. */
export interface LoginBucket {
  key: string;
  policy: LoginBackoffPolicy;
}

/** Sign-in attempts per bucket with exponential backoff; one node, in memory. */
export interface LoginThrottle {
  /**
   * 0 and one attempt counted in every bucket when all are open; else the ms until the last one
   * opens, with nothing counted. Counting before the password is checked closes the race of
   * many guesses sent at once.
   */
  take(buckets: readonly LoginBucket[]): number;
  /** Takes back one counted attempt from these buckets (it turned out right). */
  refund(keys: readonly string[]): void;
  /** Forgets these buckets. */
  clear(keys: readonly string[]): void;
}

export interface LoginThrottleOptions {
  now: () => number;
  /** Oldest buckets are forgotten past this many, so unique names cannot exhaust memory. @default 10000 */
  maxKeys?: number;
}

interface Failures {
  count: number;
  lastAt: number;
}

/** Creates the sign-in throttle; a bucket quiet for twice its longest wait starts afresh. */
export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const buckets = new Map<string, Failures>();
  const maxKeys = options.maxKeys ?? 10_000;

  function current(bucket: LoginBucket, now: number): Failures | null {
    const failures = buckets.get(bucket.key);
    if (failures === undefined) return null;
    if (now - failures.lastAt > 2 * bucket.policy.maxDelayMs) {
      buckets.delete(bucket.key);
      return null;
    }
    return failures;
  }

  function waitMs(list: readonly LoginBucket[], now: number): number {
    let wait = 0;
    for (const bucket of list) {
      const failures = current(bucket, now);
      if (failures === null) continue;
      const openAt = failures.lastAt + loginBackoffMs(failures.count, bucket.policy);
      wait = Math.max(wait, openAt - now);
    }
    return wait;
  }

  return {
    take(list) {
      const now = options.now();
      const wait = waitMs(list, now);
      if (wait > 0) return wait;
      for (const bucket of list) {
        const count = (current(bucket, now)?.count ?? 0) + 1;
        buckets.delete(bucket.key);
        buckets.set(bucket.key, { count, lastAt: now });
      }
      while (buckets.size > maxKeys) {
        const oldest = buckets.keys().next().value;
        if (oldest === undefined) break;
        buckets.delete(oldest);
      }
      return 0;
    },
    refund(keys) {
      for (const key of keys) {
        const failures = buckets.get(key);
        if (failures === undefined) continue;
        if (failures.count <= 1) buckets.delete(key);
        else failures.count -= 1;
      }
    },
    clear(keys) {
      for (const key of keys) buckets.delete(key);
    },
  };
}

/**
 * The buckets of a password sign-in: the name from this address, and the address across names.
 * There is no bucket for the name alone, so guesses from elsewhere never keep its owner out.
 */
export function passwordBuckets(name: string, ip: string, freeFailures: number): LoginBucket[] {
  return [
    { key: `name:${name.toLowerCase()}|ip:${ip}`, policy: { ...DEFAULT_LOGIN_BACKOFF, freeFailures } },
    { key: `ip:${ip}`, policy: { ...DEFAULT_LOGIN_BACKOFF, freeFailures: freeFailures * 5 } },
  ];
}

/** The bucket of one signed-in person confirming their password (registering a key, a new password). */
export function reauthBuckets(userId: string, freeFailures: number): LoginBucket[] {
  return [{ key: `reauth:${userId}`, policy: { ...DEFAULT_LOGIN_BACKOFF, freeFailures } }];
}

/** The bucket of login-link exchanges from one address. */
export function linkBuckets(ip: string, freeFailures: number): LoginBucket[] {
  return [{ key: `link-ip:${ip}`, policy: { ...DEFAULT_LOGIN_BACKOFF, freeFailures: freeFailures * 5 } }];
}
