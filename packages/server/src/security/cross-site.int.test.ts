import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResult } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { snapshotDiff, snapshotState } from '../testing/state-snapshot.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
/** A page served from another port of the same host: same-site, but another origin. */
const OTHER_PORT = 'http://127.0.0.1:1';
const CONFIGURED = 'https://gatehouse.example.com';

describe.each(dialects)('cross-site requests on %s', (dialect) => {
  let live: ListeningApp<{ now(): number }>;

  beforeAll(async () => {
    live = await startListeningApp({ dialect, config: { allowedOrigins: [CONFIGURED] } });
  }, 120_000);
  afterAll(async () => {
    await live?.close();
  });

  function withCookie(token: string, headers: Record<string, string>): Record<string, string> {
    return { cookie: `gatehouse_session=${token}`, ...headers };
  }

  function mintToken(headers: Record<string, string>): Promise<HttpResult> {
    const { agentId } = live.test.ids;
    return live.client.call('POST', `/v1/agents/${agentId}/tokens`, {
      headers: withCookie(live.test.tokens.admin, headers),
    });
  }

  function expectRefused(result: HttpResult): void {
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(result.body.error.message).toMatch(/origin/i);
  }

  it('refuses a body-less POST with the session cookie from a page on another port, and mints nothing', async () => {
    const before = await snapshotState(live.test.store);
    expectRefused(await mintToken({ origin: OTHER_PORT, 'sec-fetch-site': 'same-site' }));
    expectRefused(await mintToken({ origin: OTHER_PORT }));
    expectRefused(await mintToken({ 'sec-fetch-site': 'cross-site' }));
    expect(snapshotDiff(before, await snapshotState(live.test.store))).toEqual([]);
  });

  it('refuses a cookie-authenticated state change that says nothing about where it comes from', async () => {
    expectRefused(await mintToken({}));
  });

  it('refuses revoking tokens and logging out from another origin; the session keeps working', async () => {
    const { agentId } = live.test.ids;
    const revoke = await live.client.call('POST', `/v1/agents/${agentId}/tokens/revoke`, {
      headers: withCookie(live.test.tokens.admin, { origin: OTHER_PORT }),
    });
    expectRefused(revoke);
    const logout = await live.client.call('POST', '/v1/auth/logout', {
      headers: withCookie(live.test.tokens.viewer, { origin: OTHER_PORT, 'sec-fetch-site': 'same-site' }),
    });
    expectRefused(logout);
    expect((await live.client.call('GET', '/v1/me', { token: live.test.tokens.viewer })).status).toBe(200);
    expect((await live.client.call('GET', '/v1/me', { token: live.test.tokens.agent })).status).toBe(200);
  });

  it('refuses a DELETE with the session cookie from another origin', async () => {
    const result = await live.client.call('DELETE', '/v1/webhooks/wh_unknown', {
      headers: withCookie(live.test.tokens.admin, { origin: OTHER_PORT }),
    });
    expectRefused(result);
  });

  it('allows the same request from the server’s own origin, by Origin or by Sec-Fetch-Site', async () => {
    expect((await mintToken({ origin: live.url })).status).toBe(201);
    expect((await mintToken({ 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await mintToken({ 'sec-fetch-site': 'none' })).status).toBe(201);
    expect((await mintToken({ origin: CONFIGURED, 'sec-fetch-site': 'cross-site' })).status).toBe(201);
  });

  it('lets cookie-authenticated reads through from anywhere (they change nothing)', async () => {
    const result = await live.client.call('GET', '/v1/me', {
      headers: withCookie(live.test.tokens.viewer, { origin: OTHER_PORT, 'sec-fetch-site': 'cross-site' }),
    });
    expect(result.status).toBe(200);
  });

  it('does not apply to bearer-token requests, which a page cannot forge', async () => {
    const result = await live.client.call('POST', `/v1/agents/${live.test.ids.agentId}/tokens`, {
      token: live.test.tokens.admin,
      headers: { origin: OTHER_PORT, 'sec-fetch-site': 'cross-site' },
    });
    expect(result.status).toBe(201);
  });
});
