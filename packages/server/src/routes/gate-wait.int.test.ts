import { afterEach, describe, expect, it } from 'vitest';
import { openTestGate, useTestPolicy } from '../testing/gates.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('long-polling a gate over HTTP on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let base: string;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect });
    await useTestPolicy(test);
    base = await test.app.listen({ host: '127.0.0.1', port: 0 });
  }

  function call(
    path: string,
    token: string,
    init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
  ) {
    return fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.signal === undefined ? {} : { signal: init.signal }),
    });
  }

  async function until(check: () => boolean, ms = 2000) {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** A wait by `waiter` while `change` (an admin's request) commits, then a decision: the wait must tell nothing. */
  async function expectNothingToldAfter(
    waiter: 'agent' | 'viewer',
    changeOf: (ids: TestApp<{ now(): number }>['ids']) => { path: string; method: string; body?: unknown },
  ) {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const waiting = call(`/v1/gates/${gateId}/wait?timeoutMs=30000`, test.tokens[waiter]);
    await until(() => test.services.gates.waiting() === 1);
    const change = changeOf(test.ids);
    const changed = await call(change.path, test.tokens.admin, change);
    expect(changed.status).toBe(200);
    const decided = await call(`/v1/gates/${gateId}/decide`, test.tokens.developer, {
      method: 'POST',
      body: { option: 'approve' },
    });
    expect(decided.status).toBe(200);
    const response = await waiting;
    expect(response.status).toBe(401);
    expect(JSON.stringify(await response.json())).not.toContain('approved');
  }

  it('tells an agent whose token was revoked while it waited nothing: 401, not the decision', async () => {
    await expectNothingToldAfter('agent', (ids) => ({
      path: `/v1/agents/${ids.agentId}/tokens/revoke`,
      method: 'POST',
    }));
  });

  it('tells a person whose role was changed while they waited nothing: 401, not the decision', async () => {
    await expectNothingToldAfter('viewer', (ids) => ({
      path: `/v1/users/${ids.viewerId}`,
      method: 'PATCH',
      body: { role: 'developer' },
    }));
  });

  it('wakes the waiting agent as soon as a person decides', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const waiting = call(`/v1/gates/${gateId}/wait?timeoutMs=30000`, test.tokens.agent);
    await until(() => test.services.gates.waiting() === 1);
    const decided = await call(`/v1/gates/${gateId}/decide`, test.tokens.developer, {
      method: 'POST',
      body: { option: 'approve' },
    });
    const decidedAt = Date.now();
    expect(decided.status).toBe(200);
    const response = await waiting;
    const elapsed = Date.now() - decidedAt;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      outcome: 'approved',
      gate: { id: gateId, status: 'approved' },
    });
    expect(elapsed).toBeLessThan(1000);
    expect(test.services.gates.waiting()).toBe(0);
  });

  it('answers with the pending gate at the timeout', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const started = Date.now();
    const response = await call(`/v1/gates/${gateId}/wait?timeoutMs=200`, test.tokens.viewer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(await response.json()).toMatchObject({ outcome: null, gate: { status: 'pending' } });
  });

  it('stops waiting when the client goes away', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const controller = new AbortController();
    const waiting = call(`/v1/gates/${gateId}/wait?timeoutMs=60000`, test.tokens.agent, {
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await until(() => test.services.gates.waiting() === 1);
    controller.abort();
    await waiting;
    await until(() => test.services.gates.waiting() === 0);
  });

  it('refuses a wait longer than 60 s, naming the field', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const response = await call(`/v1/gates/${gateId}/wait?timeoutMs=60001`, test.tokens.agent);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('timeoutMs');
  });
});
