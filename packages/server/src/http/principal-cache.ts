import { performance } from 'node:perf_hooks';

/**
 * How long a credential looked up by this node is trusted without asking the database again.
 * Changes made through this node's store apply at once (its credentials version moves); changes
 * made on another node apply here within this bound, so within 1 s on every node.
 */
export const PRINCIPAL_CACHE_TTL_MS = 500;

const MAX_ENTRIES = 10_000;

interface Entry<P> {
  value: P;
  /** When the credential itself expires (epoch ms by the app clock), or null. */
  expiresAt: number | null;
  version: number;
  /** Monotonic time of the lookup: staleness is real time, whatever the app clock says. */
  checkedAt: number;
}

/** What a lookup found: the value to cache and when the credential stops being valid. */
export interface Found<P> {
  value: P;
  expiresAt: number | null;
}

/** Principals by token hash, short-lived and dropped whenever the store's credentials version moves. */
export interface PrincipalCache<P> {
  /**
   * The cached value while it is fresh, else `lookup()` (one at a time per key); `null` from the
   * lookup (an unknown, revoked or expired credential) is never cached.
   */
  get(key: string, now: number, lookup: () => Promise<Found<P> | null>): Promise<P | null>;
}

/** Creates the cache; `version()` is the store's credentials version. @default ttlMs 500 */
export function createPrincipalCache<P>(
  version: () => number,
  options: { ttlMs?: number; maxEntries?: number; monotonicNow?: () => number } = {},
): PrincipalCache<P> {
  const ttlMs = options.ttlMs ?? PRINCIPAL_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const monotonicNow = options.monotonicNow ?? (() => performance.now());
  const entries = new Map<string, Entry<P>>();
  const inflight = new Map<string, { version: number; found: Promise<Found<P> | null> }>();

  function fresh(entry: Entry<P>, now: number): boolean {
    return (
      entry.version === version() &&
      monotonicNow() - entry.checkedAt < ttlMs &&
      (entry.expiresAt === null || entry.expiresAt > now)
    );
  }

  function remember(key: string, entry: Entry<P>): void {
    entries.delete(key);
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, entry);
  }

  async function load(key: string, lookup: () => Promise<Found<P> | null>): Promise<Found<P> | null> {
    // Taken before the read, so a change committed during the read leaves the entry stale.
    const seen = version();
    const checkedAt = monotonicNow();
    const pending = inflight.get(key);
    if (pending !== undefined && pending.version === seen) return pending.found;
    const found = lookup();
    inflight.set(key, { version: seen, found });
    try {
      const result = await found;
      if (result !== null) remember(key, { ...result, version: seen, checkedAt });
      else entries.delete(key);
      return result;
    } finally {
      if (inflight.get(key)?.found === found) inflight.delete(key);
    }
  }

  return {
    async get(key, now, lookup) {
      const entry = entries.get(key);
      if (entry !== undefined && fresh(entry, now)) return entry.value;
      const found = await load(key, lookup);
      // A lookup shared with another request may have found a credential that has expired by now.
      if (found === null || (found.expiresAt !== null && found.expiresAt <= now)) return null;
      return found.value;
    },
  };
}
