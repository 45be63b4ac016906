import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { openTestGate, useTestPolicy } from '../../testing/gates.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtp-inbox.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../../testing/test-app.js';
import { dispatchTriggers } from './dispatch.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const GATES = 5;
/** Forty of the worker's routing batches: the queue a busy hour leaves while deliveries are due. */
const QUEUED = 4000;

describe.each(dialects)('notification deliveries under load on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** A server with email on, whose three people hear of gates by email. */
  async function start(inbox: SmtpInbox, onStatement?: (sql: string) => void) {
    const test = await createTestApp({
      dialect,
      config: { notifications: { ...loadConfig({}).notifications, smtpUrl: inbox.url } },
      ...(onStatement === undefined ? {} : { onStatement: ({ sql }) => onStatement(sql) }),
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
    return test;
  }

  async function queueTriggers(test: TestApp<{ now(): number }>, gateIds: string[], count: number) {
    await test.store.transaction(async (tx) => {
      for (let i = 0; i < count; i++)
        await tx.insertNotificationTrigger({
          id: `evt_load_${i}`,
          trigger: 'gate.opened',
          gateId: gateIds[i % gateIds.length] as string,
          data: JSON.stringify({ actor: `agent:${test.ids.agentId}` }),
          createdAt: tx.now,
        });
    });
  }

  it('claims the notices already due before it routes queued gate changes', { timeout: 60_000 }, async () => {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    const statements: string[] = [];
    const test = await start(inbox, (sql) => statements.push(sql));
    await test.services.notifications.close();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    await dispatchTriggers(test.ctx);
    await queueTriggers(test, [gateId], 100);
    statements.length = 0;
    test.services.notifications.start();
    await inbox.waitFor(3, undefined, 30_000);
    const claimed = statements.findIndex((sql) =>
      /^update (".+"\.)?"notifications" set "claim_token"/i.test(sql),
    );
    const routed = statements.findIndex((sql) => /^delete from (".+"\.)?"notification_triggers"/i.test(sql));
    expect(claimed).toBeGreaterThanOrEqual(0);
    expect(routed === -1 || claimed < routed, `claimed at ${claimed}, routed at ${routed}`).toBe(true);
  });

  it('delivers while gate changes are still queued, not only once routing ran dry', {
    timeout: 60_000,
  }, async () => {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    const test = await start(inbox);
    // The queue fills while the worker is stopped, as it does when gates open faster than it routes.
    await test.services.notifications.close();
    const gateIds: string[] = [];
    for (let i = 0; i < GATES; i++)
      gateIds.push(await openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } }));
    await queueTriggers(test, gateIds, QUEUED);
    test.services.notifications.start();
    await inbox.waitFor(1, undefined, 50_000);
    // Pending notices are due by now; with 0 as the time, only queued triggers count as work.
    expect(await test.store.read((tx) => tx.hasNotificationWork(0))).toBe(true);
  });
});
