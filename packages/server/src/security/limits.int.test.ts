import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type ServerConfig } from '../config.js';
import { inPool, type Json } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
type FakeClock = ReturnType<typeof createFakeClock>;
const defaults = loadConfig({});

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

describe.each(dialects)('request limits on %s', (dialect) => {
  let live: ListeningApp<FakeClock> | null = null;

  async function start(config: Partial<ServerConfig> = {}): Promise<ListeningApp<FakeClock>> {
    live = await startListeningApp({ dialect, clock: createFakeClock(), config });
    return live;
  }
  afterEach(async () => {
    await live?.close();
    live = null;
  });

  async function post(app: ListeningApp<FakeClock>, path: string, payload: string, token: string) {
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: payload,
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  }

  it('answers JSON nested thousands of levels deep with a 400 naming the limit, not a 500', async () => {
    const app = await start();
    const payload = `{"tool":"deploy","args":{"deep":${nested(2240)}}}`;
    const result = await post(app, '/v1/gates', payload, app.test.tokens.agent);
    expect(result.status).toBe(400);
    expect(result.body.error.code).toBe('VALIDATION_FAILED');
    expect(result.body.error.message).toContain('64');
    expect(result.body.error.details).toMatchObject({ field: 'body', limit: 64 });
    const deeper = await post(
      app,
      '/v1/gates',
      `{"tool":"deploy","args":{"deep":${nested(200_000)}}}`,
      app.test.tokens.agent,
    );
    expect(deeper.status).toBe(400);
  });

  it('refuses JSON one level past the limit and accepts it at the limit', async () => {
    const app = await start();
    // The body object is level 1 and args level 2, so the array adds limit - 2 more.
    const at = `{"tool":"deploy","args":{"deep":${nested(defaults.jsonDepthLimit - 2)}}}`;
    const over = `{"tool":"deploy","args":{"deep":${nested(defaults.jsonDepthLimit - 1)}}}`;
    expect((await post(app, '/v1/gates', at, app.test.tokens.agent)).status).toBe(200);
    expect((await post(app, '/v1/gates', over, app.test.tokens.agent)).status).toBe(400);
  });

  it('answers a body over the size limit with 413 naming the limit, with or without a length', async () => {
    const app = await start({ bodyLimit: 100_000 });
    const payload = JSON.stringify({ tool: 'deploy', args: { blob: 'x'.repeat(150_000) } });
    const sized = await post(app, '/v1/gates', payload, app.test.tokens.agent);
    expect(sized.status).toBe(413);
    expect(sized.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(sized.body.error.message).toContain('100000 bytes');
    const chunked = await fetch(`${app.url}/v1/gates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.test.tokens.agent}`, 'content-type': 'application/json' },
      body: new Blob([payload]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('refuses gate arguments over the cap with 413 naming args, and counts context with them', async () => {
    const app = await start();
    const { agent } = app.test.tokens;
    const limit = defaults.gateArgsLimitBytes;
    const big = JSON.stringify({ tool: 'deploy', args: { blob: 'x'.repeat(limit) } });
    const refused = await post(app, '/v1/gates', big, agent);
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(refused.body.error.details).toMatchObject({ field: 'args', limit });
    expect(refused.body.error.message).toContain('args');

    const half = 'x'.repeat(limit / 2);
    const split = JSON.stringify({ tool: 'deploy', args: { half }, context: { half } });
    expect((await post(app, '/v1/gates', split, agent)).status).toBe(413);
    const fits = JSON.stringify({ tool: 'deploy', args: { blob: 'x'.repeat(limit - 1000) } });
    expect((await post(app, '/v1/gates', fits, agent)).status).toBe(200);
  });

  it('limits one agent opening gates in a flood with 429 and Retry-After; other agents go on', async () => {
    const app = await start({
      rateLimits: { agent: { perSecond: 5, burst: 20 }, token: { perSecond: 50, burst: 100 } },
    });
    const body = (i: number) => ({ tool: 'deploy', args: { i } });
    const results = await inPool(
      Array.from({ length: 400 }, (_, i) => i),
      32,
      (i) => app.client.call('POST', '/v1/gates', { token: app.test.tokens.agent, body: body(i) }),
    );
    const statuses = results.map((r) => r.status);
    // The clock stands still: exactly the burst gets through.
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(380);
    const refused = results.find((r) => r.status === 429);
    expect(refused?.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'agent' } });

    const response = await fetch(`${app.url}/v1/gates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.test.tokens.agent}`, 'content-type': 'application/json' },
      body: JSON.stringify(body(0)),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');

    const other = await app.client.call('POST', '/v1/gates', {
      token: app.test.tokens.otherAgent,
      body: body(1),
    });
    expect(other.status).toBe(200);
    app.test.clock.advance(1000);
    const later = await app.client.call('POST', '/v1/gates', { token: app.test.tokens.agent, body: body(2) });
    expect(later.status).toBe(200);
  });

  it('limits one token, a person’s too, and reads are not counted', async () => {
    const app = await start({
      rateLimits: { agent: { perSecond: 100, burst: 100 }, token: { perSecond: 1, burst: 3 } },
    });
    const { admin } = app.test.tokens;
    const mint = () => app.client.call('POST', `/v1/agents/${app.test.ids.agentId}/tokens`, { token: admin });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await mint()).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect((await mint()).body.error.details).toMatchObject({ scope: 'token' });
    expect((await app.client.call('GET', '/v1/me', { token: admin })).status).toBe(200);
    expect((await app.client.call('GET', '/v1/me', { token: app.test.tokens.developer })).status).toBe(200);
  });

  it('turns on the per-agent and per-token limits by default', () => {
    expect(defaults.rateLimits.agent.perSecond).toBeGreaterThan(0);
    expect(defaults.rateLimits.token.perSecond).toBeGreaterThan(0);
    const env = loadConfig({ GATEHOUSE_AGENT_RATE_PER_SECOND: '7', GATEHOUSE_TOKEN_RATE_BURST: '9' });
    expect(env.rateLimits.agent.perSecond).toBe(7);
    expect(env.rateLimits.token.burst).toBe(9);
  });

  it('says when to retry a refused login', async () => {
    const app = await start({ loginAttemptsPerMinute: 1 });
    const login = () =>
      fetch(`${app.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'dev', password: 'wrong' }),
      });
    expect((await login()).status).toBe(401);
    const refused = await login();
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
  });
});
