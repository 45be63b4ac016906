import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type ServerConfig } from '../../config.js';
import { openTestGate, useTestPolicy } from '../../testing/gates.js';
import { startSmtpInbox } from '../../testing/smtp-inbox.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const GATES = 3;

type Notifications = Partial<ServerConfig['notifications']>;
const QUICK: Notifications = { pollIntervalMs: 20, maxAttempts: 1, backoffBaseMs: 1 };

describe.each(dialects)('notifications on channels the server has on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(notifications: Notifications = {}): Promise<TestApp<{ now(): number }>> {
    const test = await createTestApp({
      dialect,
      config: { notifications: { ...loadConfig({}).notifications, ...QUICK, ...notifications } },
    });
    cleanup.push(() => test.close());
    await useTestPolicy(test);
    for (const [token, email] of [
      [test.tokens.developer, 'dev@example.test'],
      [test.tokens.techLead, 'lead@example.test'],
      [test.tokens.admin, 'admin@example.test'],
    ] as const) {
      const response = await test.app.inject({
        method: 'PUT',
        url: '/v1/me/notification-channels',
        headers: bearer(token),
        payload: { channels: ['email', 'slack'], email },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    return test;
  }

  async function openGates(test: TestApp<{ now(): number }>): Promise<void> {
    for (let i = 0; i < GATES; i++)
      await openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } });
  }

  /** Waits until nothing is queued or due, so whatever the worker would write has been written. */
  async function settled(test: TestApp<{ now(): number }>): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (await test.store.read((tx) => tx.hasNotificationWork(Number.MAX_SAFE_INTEGER))) {
      if (Date.now() > deadline) throw new Error('notifications still queued after 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function countsByChannel(test: TestApp<{ now(): number }>): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const row of await test.store.read((tx) => tx.countNotifications()))
      counts[row.channel] = (counts[row.channel] ?? 0) + row.count;
    return counts;
  }

  it('writes no notification and logs no delivery warning when no channel is configured', async () => {
    const test = await start();
    const warn = vi.spyOn(test.ctx.log, 'warn');
    await openGates(test);
    await settled(test);
    expect(await countsByChannel(test)).toEqual({});
    expect(warn.mock.calls.filter((call) => JSON.stringify(call).includes('notification'))).toEqual([]);
  });

  it('with SMTP configured, writes email notices only', async () => {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    const test = await start({ smtpUrl: inbox.url });
    await openGates(test);
    await inbox.waitFor(3 * GATES);
    await settled(test);
    expect(await countsByChannel(test)).toEqual({ email: 3 * GATES });
  });

  it('says which channels this server delivers on', async () => {
    const test = await start();
    const response = await test.app.inject({
      method: 'GET',
      url: '/v1/me/notification-channels',
      headers: bearer(test.tokens.developer),
    });
    expect(response.json()).toMatchObject({ available: { email: false, slack: false, browser: true } });
  });
});
