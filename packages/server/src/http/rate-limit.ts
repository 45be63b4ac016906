import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import type { RateLimit, RateLimits } from '../config.js';

const STATE_CHANGING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** MCP tool calls reach the API again with the same token and are counted there. */
const UNCOUNTED_ROUTES: ReadonlySet<string> = new Set(['/mcp']);

/** Token buckets by key, in memory on one node. */
export interface RateLimiter {
  /** 0 when `key` may go ahead now, else the ms until it may. */
  waitMs(key: string, now: number): number;
  /** Spends one request of `key`; call only after waitMs said 0. */
  take(key: string, now: number): void;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** A token bucket per key: `burst` at once, refilled at `perSecond`; perSecond 0 never limits. */
export function createRateLimiter(limit: RateLimit, maxKeys = 100_000): RateLimiter {
  const buckets = new Map<string, Bucket>();
  const refilled = (key: string, now: number): Bucket => {
    const bucket = buckets.get(key);
    if (!bucket) return { tokens: limit.burst, at: now };
    const elapsed = Math.max(0, now - bucket.at);
    return { tokens: Math.min(limit.burst, bucket.tokens + (elapsed * limit.perSecond) / 1000), at: now };
  };
  return {
    waitMs(key, now) {
      if (limit.perSecond <= 0) return 0;
      const { tokens } = refilled(key, now);
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / limit.perSecond);
    },
    take(key, now) {
      if (limit.perSecond <= 0) return;
      const bucket = refilled(key, now);
      bucket.tokens -= 1;
      // Re-inserting keeps the map in least-recently-used order, so the oldest key goes first.
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
    },
  };
}

/**
 * Limits writes per agent (all its tokens together) and per credential, after the principal is
 * known; a refusal is RATE_LIMITED with the seconds to wait, which becomes Retry-After.
 */
export function registerRateLimits(app: FastifyInstance, limits: RateLimits, now: () => number): void {
  const scopes = { agent: createRateLimiter(limits.agent), token: createRateLimiter(limits.token) };
  app.addHook('onRequest', (request, _reply, done) => {
    limit(request);
    done();
  });

  function limit(request: FastifyRequest): void {
    const principal = request.principal;
    if (principal.kind === 'anonymous' || !STATE_CHANGING.has(request.method)) return;
    if (UNCOUNTED_ROUTES.has(request.routeOptions.url ?? '')) return;
    const keys: [keyof typeof scopes, string][] = [];
    if (principal.kind === 'agent') keys.push(['agent', principal.id]);
    if (request.credentialHash !== null) keys.push(['token', request.credentialHash]);
    const at = now();
    for (const [scope, key] of keys) {
      const waitMs = scopes[scope].waitMs(key, at);
      if (waitMs === 0) continue;
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new GatehouseError(
        'RATE_LIMITED',
        `too many requests from this ${scope}; retry in ${retryAfterSeconds} s`,
        { scope, retryAfterSeconds, perSecond: limits[scope].perSecond, burst: limits[scope].burst },
      );
    }
    for (const [scope, key] of keys) scopes[scope].take(key, at);
  }
}
