import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { openTestGate, useTestPolicy } from '../../testing/gates.js';
import { startSmtpInbox } from '../../testing/smtp-inbox.js';
import { createTestApp, type TestApp, type TestDialect } from '../../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const PEOPLE = 20;
/** The most SMTP connections the email channel keeps open: one gate change's fan-out to 20 people. */
const POOLED = 20;

/** 20 people who may decide a shell gate, each hearing by email. */
async function seedPeople(test: TestApp<{ now(): number }>): Promise<void> {
  const seeded = [test.ids.adminId, test.ids.techLeadId, test.ids.developerId];
  await test.store.transaction(async (tx) => {
    for (let i = seeded.length; i < PEOPLE; i++) {
      const id = `user_mail${i}`;
      await tx.insertUser({
        id,
        name: id,
        role: 'developer',
        passwordHash: null,
        disabled: false,
        createdAt: tx.now,
      });
      seeded.push(id);
    }
    for (const userId of seeded)
      await tx.putNotificationPreference({
        userId,
        channels: ['email'],
        email: `${userId}@example.test`,
        updatedAt: tx.now,
      });
  });
}

describe.each(dialects)('email connections on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('sends the notices of one gate change to 20 people at once, so a slow SMTP server answers them in one round', {
    timeout: 60_000,
  }, async () => {
    const inbox = await startSmtpInbox({ answerAfterMs: 500 });
    cleanup.push(() => inbox.close());
    const test = await createTestApp({
      dialect,
      config: {
        notifications: { ...loadConfig({}).notifications, smtpUrl: inbox.url, pollIntervalMs: 20 },
      },
    });
    cleanup.push(() => test.close());
    await useTestPolicy(test);
    await seedPeople(test);
    await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    await inbox.waitFor(PEOPLE, undefined, 30_000);
    expect(inbox.busiest()).toBe(PEOPLE);
  });

  it('keeps no more connections than the SMTP URL allows (maxConnections)', { timeout: 60_000 }, async () => {
    const inbox = await startSmtpInbox({ answerAfterMs: 100 });
    cleanup.push(() => inbox.close());
    const smtpUrl = `${inbox.url}?maxConnections=4`;
    const test = await createTestApp({
      dialect,
      config: { notifications: { ...loadConfig({}).notifications, smtpUrl, pollIntervalMs: 20 } },
    });
    cleanup.push(() => test.close());
    await useTestPolicy(test);
    await seedPeople(test);
    await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    await inbox.waitFor(PEOPLE, undefined, 30_000);
    expect(inbox.busiest()).toBe(4);
    expect(inbox.connections()).toBeLessThanOrEqual(4);
  });

  it('sends many notices over a few kept connections, and opens them again after a restart', {
    timeout: 60_000,
  }, async () => {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    const test = await createTestApp({
      dialect,
      config: {
        notifications: { ...loadConfig({}).notifications, smtpUrl: inbox.url, pollIntervalMs: 20 },
      },
    });
    cleanup.push(() => test.close());
    await useTestPolicy(test);
    await seedPeople(test);
    for (let i = 0; i < 2; i++) await openTestGate(test, { tool: 'shell', args: { command: `make ${i}` } });
    await inbox.waitFor(2 * PEOPLE, undefined, 30_000);
    expect(inbox.connections()).toBeLessThanOrEqual(POOLED);

    // Closed with the worker, the connections are opened anew when it starts again.
    await test.services.notifications.close();
    const before = inbox.connections();
    test.services.notifications.start();
    await openTestGate(test, { tool: 'shell', args: { command: 'make again' } });
    await inbox.waitFor(3 * PEOPLE, undefined, 30_000);
    expect(inbox.connections()).toBeGreaterThan(before);
    expect(inbox.connections() - before).toBeLessThanOrEqual(POOLED);
    // Outcomes are recorded a moment after the mail went out.
    const recorded = () => test.store.read((tx) => tx.countNotifications());
    for (let waited = 0; waited < 10_000 && (await recorded())[0]?.status !== 'sent'; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await recorded()).toEqual([{ channel: 'email', status: 'sent', count: 3 * PEOPLE }]);
  });
});
