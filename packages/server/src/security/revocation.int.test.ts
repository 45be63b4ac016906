import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('authorization changes over real HTTP on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let base: string;
  // One kept-alive connection per caller: nothing about a credential may stick to a connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect });
    base = await test.app.listen({ host: '127.0.0.1', port: 0 });
  }

  function call(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    token: string,
    body?: object,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      const headers = {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      };
      const req = request(`${base}${path}`, { method, agent, headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body ? JSON.stringify(body) : undefined);
    });
  }

  it('refuses a revoked agent token on its very next request', async () => {
    await start();
    expect(await call('GET', '/v1/me', test.tokens.agent)).toBe(200);
    expect(await call('POST', `/v1/agents/${test.ids.agentId}/tokens/revoke`, test.tokens.admin)).toBe(200);
    expect(await call('GET', '/v1/me', test.tokens.agent)).toBe(401);
  });

  it('applies a demotion and a disable to the very next request', async () => {
    await start();
    expect(
      await call('PATCH', `/v1/users/${test.ids.techLeadId}`, test.tokens.admin, { role: 'admin' }),
    ).toBe(200);
    expect(await call('GET', '/v1/users', test.tokens.techLead)).toBe(200);
    expect(
      await call('PATCH', `/v1/users/${test.ids.techLeadId}`, test.tokens.admin, { role: 'viewer' }),
    ).toBe(200);
    expect(await call('GET', '/v1/users', test.tokens.techLead)).toBe(403);
    expect(await call('GET', '/v1/agents', test.tokens.techLead)).toBe(200);
    expect(
      await call('PATCH', `/v1/users/${test.ids.techLeadId}`, test.tokens.admin, { disabled: true }),
    ).toBe(200);
    expect(await call('GET', '/v1/agents', test.tokens.techLead)).toBe(401);
  });
});
