/** Counts attempts per key (name, address) in a sliding window; one node, in memory. */
export interface AttemptLimiter {
  /** Records one attempt under every key; false (and nothing recorded) when any key is at its limit. */
  take(keys: readonly string[]): boolean;
}

export interface AttemptLimiterOptions {
  limit: number;
  windowMs: number;
  now: () => number;
  /** Oldest keys are forgotten past this many, so unique names cannot exhaust memory. */
  maxKeys?: number;
}

/** A sliding-window limiter for login attempts. */
export function createAttemptLimiter(options: AttemptLimiterOptions): AttemptLimiter {
  const hits = new Map<string, number[]>();
  const maxKeys = options.maxKeys ?? 10_000;

  function recent(key: string, now: number): number[] {
    const kept = (hits.get(key) ?? []).filter((at) => at > now - options.windowMs);
    if (kept.length === 0) hits.delete(key);
    else hits.set(key, kept);
    return kept;
  }

  return {
    take(keys) {
      const now = options.now();
      if (keys.some((key) => recent(key, now).length >= options.limit)) return false;
      for (const key of keys) {
        const list = hits.get(key) ?? [];
        list.push(now);
        hits.delete(key);
        hits.set(key, list);
      }
      while (hits.size > maxKeys) {
        const oldest = hits.keys().next().value;
        if (oldest === undefined) break;
        hits.delete(oldest);
      }
      return true;
    },
  };
}
