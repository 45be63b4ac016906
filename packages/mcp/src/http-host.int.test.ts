import {
  type HttpResult,
  type Json,
  type ListeningApp,
  startListeningApp,
  type TestDialect,
} from 'gatehouse-hitl-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpEndpoints } from './endpoints.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
/** A page served from another port of the same host: same-site, but another origin. */
const OTHER_PORT = 'http://127.0.0.1:1';
const CONFIGURED = 'https://gatehouse.example.com';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

describe.each(dialects)('the server in front of /mcp on %s', (dialect) => {
  let live: ListeningApp<{ now(): number }>;

  beforeAll(async () => {
    live = await startListeningApp({ dialect, config: { allowedOrigins: [CONFIGURED] }, mcp: mcpEndpoints });
  }, 120_000);
  afterAll(async () => {
    await live?.close();
  });

  function expectRefused(result: HttpResult): void {
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(result.body.error.message).toMatch(/origin/i);
  }

  it('refuses /mcp from a foreign Origin, and serves it without an Origin or from its own', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const call = (origin: Record<string, string>) =>
      live.client.call('POST', '/mcp', {
        token: live.test.tokens.agent,
        headers: { ...headers, ...origin },
        body: initialize,
      });
    const foreign = await call({ origin: 'http://attacker.example:7300' });
    expectRefused(foreign);
    expectRefused(await call({ origin: OTHER_PORT }));
    expect((await call({})).status).toBe(200);
    expect((await call({ origin: live.url })).status).toBe(200);
  });

  it('refuses /mcp from a rebound DNS name whose Origin matches its Host header', async () => {
    const result = await live.client.call('POST', '/mcp', {
      token: live.test.tokens.agent,
      headers: {
        accept: 'application/json, text/event-stream',
        host: `rebound.attacker.example:${new URL(live.url).port}`,
        origin: `http://rebound.attacker.example:${new URL(live.url).port}`,
      },
      body: initialize,
    });
    expectRefused(result);
  });

  it('says how to authenticate on a 401 from /mcp', async () => {
    const response = await fetch(`${live.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
    expect(((await response.json()) as Json).error.code).toBe('UNAUTHENTICATED');
  });
});
