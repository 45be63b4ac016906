import { describe, expect, it } from 'vitest';
import { createPrincipalCache, type Found, PRINCIPAL_CACHE_TTL_MS } from './principal-cache.js';

function setUp(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const state = { version: 0, monotonic: 0, lookups: 0 };
  const cache = createPrincipalCache<string>(() => state.version, {
    ...options,
    monotonicNow: () => state.monotonic,
  });
  const found =
    (value: string, expiresAt: number | null = null) =>
    async (): Promise<Found<string>> => {
      state.lookups += 1;
      return { value, expiresAt };
    };
  return { state, cache, found };
}

describe('principal cache', () => {
  it('keeps a credential for at most 500 ms, so other nodes’ revocations apply within 1 s', async () => {
    expect(PRINCIPAL_CACHE_TTL_MS).toBeLessThanOrEqual(500);
    const { state, cache, found } = setUp();
    expect(await cache.get('hash', 0, found('agent'))).toBe('agent');
    state.monotonic = PRINCIPAL_CACHE_TTL_MS - 1;
    expect(await cache.get('hash', 0, found('agent'))).toBe('agent');
    expect(state.lookups).toBe(1);
    state.monotonic = PRINCIPAL_CACHE_TTL_MS;
    expect(await cache.get('hash', 0, async () => null)).toBeNull();
  });

  it('looks again as soon as the store’s credentials version moves', async () => {
    const { state, cache, found } = setUp();
    await cache.get('hash', 0, found('admin'));
    state.version += 1;
    expect(await cache.get('hash', 0, found('viewer'))).toBe('viewer');
    expect(state.lookups).toBe(2);
  });

  it('treats an entry whose lookup overlapped a change as stale', async () => {
    const { state, cache } = setUp();
    await cache.get('hash', 0, async () => {
      state.version += 1; // a revocation commits while the read is in flight
      return { value: 'agent', expiresAt: null };
    });
    expect(await cache.get('hash', 0, async () => null)).toBeNull();
  });

  it('refuses a cached credential once it has expired by the app clock', async () => {
    const { cache, found } = setUp();
    expect(await cache.get('hash', 1000, found('user', 2000))).toBe('user');
    expect(await cache.get('hash', 1999, found('user', 2000))).toBe('user');
    expect(await cache.get('hash', 2000, async () => null)).toBeNull();
  });

  it('never caches an unknown or refused credential', async () => {
    const { state, cache } = setUp();
    let lookups = 0;
    const refused = async () => {
      lookups += 1;
      return null;
    };
    expect(await cache.get('hash', 0, refused)).toBeNull();
    expect(await cache.get('hash', 0, refused)).toBeNull();
    expect(lookups).toBe(2);
    expect(state.lookups).toBe(0);
  });

  it('shares one lookup between concurrent requests with the same credential', async () => {
    const { state, cache, found } = setUp();
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('hash', 0, found('agent'))));
    expect(answers).toEqual(Array(20).fill('agent'));
    expect(state.lookups).toBe(1);
  });

  it('does not keep a failed lookup', async () => {
    const { state, cache, found } = setUp();
    await expect(
      cache.get('hash', 0, async () => {
        throw new Error('database unavailable');
      }),
    ).rejects.toThrow('database unavailable');
    expect(await cache.get('hash', 0, found('agent'))).toBe('agent');
    expect(state.lookups).toBe(1);
  });

  it('holds at most maxEntries credentials, dropping the oldest', async () => {
    const { state, cache, found } = setUp({ maxEntries: 2 });
    await cache.get('a', 0, found('a'));
    await cache.get('b', 0, found('b'));
    await cache.get('c', 0, found('c'));
    await cache.get('b', 0, found('b'));
    expect(state.lookups).toBe(3);
    await cache.get('a', 0, found('a'));
    expect(state.lookups).toBe(4);
  });
});
