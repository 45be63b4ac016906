import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from 'gatehouse-hitl-core';
import { startTestPostgres, type TestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createInProcessBus } from '../../events/bus.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtp-inbox.js';

const clock: Clock = { now: () => Date.now() };
const PEOPLE = [
  { id: 'user_a', role: 'developer' as const },
  { id: 'user_b', role: 'tech_lead' as const },
  { id: 'user_c', role: 'admin' as const },
];
const GATES = 20;

describe('notification delivery on two nodes of one Postgres', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function node(postgres: TestPostgres, inbox: SmtpInbox) {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-notify-'));
    const store = await postgres.openStore({ clock });
    const config = loadConfig(
      {},
      {
        dataDir: dir,
        port: 0,
        logLevel: 'silent',
        rateLimits: { agent: { perSecond: 0, burst: 1 }, token: { perSecond: 0, burst: 1 } },
        notifications: {
          smtpUrl: inbox.url,
          smtpFrom: 'gatehouse@example.test',
          emailLinkTtlMs: 60_000,
          emailSessionRole: 'tech_lead',
          pollIntervalMs: 10,
          maxAttempts: 3,
          backoffBaseMs: 1,
        },
      },
    );
    const bus = createInProcessBus();
    const app = await buildApp({ store, bus, clock, config });
    await app.ready();
    cleanup.push(async () => {
      await app.close();
      await bus.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return app;
  }

  it('delivers each notice exactly once while both nodes route and deliver', async () => {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    const postgres = await startTestPostgres({ clock });
    cleanup.push(() => postgres.stop());
    await postgres.store.transaction(async (tx) => {
      await tx.insertAgent({ id: 'agent_n', name: 'n', profile: null, autonomy: null, createdAt: tx.now });
      for (const person of PEOPLE) {
        await tx.insertUser({
          ...person,
          name: person.id,
          passwordHash: null,
          disabled: false,
          createdAt: tx.now,
        });
        await tx.putNotificationPreference({
          userId: person.id,
          channels: ['email'],
          email: `${person.id}@example.test`,
          updatedAt: tx.now,
        });
      }
    });
    const [first, second] = [await node(postgres, inbox), await node(postgres, inbox)];
    const apps = [first, second];
    await Promise.all(
      Array.from({ length: GATES }, (_, i) =>
        apps[i % 2]?.gatehouse.services.gates.request(
          { kind: 'agent', id: 'agent_n' },
          { tool: 'shell', args: { command: `./deploy.sh ${i}` } },
        ),
      ),
    );
    const expected = GATES * PEOPLE.length;
    await inbox.waitFor(expected, undefined, 30_000);
    // Give a duplicate, if any, time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inbox.messages).toHaveLength(expected);
    const sent = await postgres.store.read((tx) => tx.listNotifications({ status: 'sent', limit: 1000 }));
    expect(sent.items).toHaveLength(expected);
    expect(new Set(sent.items.map((n) => `${n.gateId}/${n.userId}`)).size).toBe(expected);
    expect(sent.items.every((n) => n.attempts === 1)).toBe(true);
  });
});
