import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { openTestGate, useTestPolicy } from '../../testing/gates.js';
import { startSmtpInbox } from '../../testing/smtp-inbox.js';
import { bearer, createTestApp, type TestDialect } from '../../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const GATES = 5;
/** Forty of the worker's routing batches: the queue a busy hour leaves while deliveries are due. */
const QUEUED = 4000;

describe.each(dialects)('notification deliveries under load on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('delivers while gate changes are still queued, not only once routing ran dry', {
    timeout: 60_000,
  }, async () => {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    const test = await createTestApp({
      dialect,
      config: { notifications: { ...loadConfig({}).notifications, smtpUrl: inbox.url } },
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
        payload: { channels: ['email'], email },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    // The queue fills while the worker is stopped, as it does when gates open faster than it routes.
    await test.services.notifications.close();
    const gateIds: string[] = [];
    for (let i = 0; i < GATES; i++)
      gateIds.push(await openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } }));
    await test.store.transaction(async (tx) => {
      for (let i = 0; i < QUEUED; i++)
        await tx.insertNotificationTrigger({
          id: `evt_load_${i}`,
          trigger: 'gate.opened',
          gateId: gateIds[i % GATES] as string,
          data: JSON.stringify({ actor: `agent:${test.ids.agentId}` }),
          createdAt: tx.now,
        });
    });
    test.services.notifications.start();
    await inbox.waitFor(1, undefined, 50_000);
    // Pending notices are due by now; with 0 as the time, only queued triggers count as work.
    expect(await test.store.read((tx) => tx.hasNotificationWork(0))).toBe(true);
  });
});
