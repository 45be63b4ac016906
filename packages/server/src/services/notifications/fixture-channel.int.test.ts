import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createFixtureChannel, type FixtureChannel } from '../../testing/fixture-channel.js';
import { openTestGate, useTestPolicy } from '../../testing/gates.js';
import { createTestApp, type TestApp, type TestDialect } from '../../testing/test-app.js';
import { NOTIFICATION_CHANNEL_DEFINITIONS } from './channels/index.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('a channel added by its definition alone on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(channel: FixtureChannel): Promise<TestApp<{ now(): number }>> {
    const notifications = { ...loadConfig({}).notifications, pollIntervalMs: 20, maxAttempts: 1 };
    const test = await createTestApp({
      dialect,
      config: { notifications },
      notificationChannels: [...NOTIFICATION_CHANNEL_DEFINITIONS, channel.definition],
    });
    cleanup.push(() => test.close());
    await useTestPolicy(test);
    return test;
  }

  it('delivers a gate notice through the notification worker to everyone who may decide', async () => {
    const channel = createFixtureChannel({ configured: true });
    const test = await start(channel);
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make deploy' } });

    const notices = await channel.waitFor(3);
    expect(notices.map((notice) => [notice.trigger, notice.gate.id])).toEqual([
      ['gate.opened', gateId],
      ['gate.opened', gateId],
      ['gate.opened', gateId],
    ]);
    expect(notices.map((notice) => notice.recipient.userId).sort()).toEqual(
      [test.ids.adminId, test.ids.techLeadId, test.ids.developerId].sort(),
    );
    const log = await test.store.read((tx) => tx.listNotifications({ gateId }));
    expect(log.items.map((row) => row.channel)).toEqual(['fixture', 'fixture', 'fixture']);
  });

  it('queues nothing for it while its config leaves it off', async () => {
    const channel = createFixtureChannel({ configured: false });
    const test = await start(channel);
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make deploy' } });

    // The gate's trigger would be written in the gate's own transaction: nothing is queued at all.
    expect(await test.store.read((tx) => tx.hasNotificationWork(Number.MAX_SAFE_INTEGER))).toBe(false);
    expect(await test.store.read((tx) => tx.listNotifications({ gateId }))).toMatchObject({ items: [] });
    expect(channel.delivered).toEqual([]);
  });
});
