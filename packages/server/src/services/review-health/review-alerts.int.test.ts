import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate } from '../../testing/gates.js';
import { type ReceivedMail, startSmtpInbox } from '../../testing/smtp-inbox.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const WEEK = 7 * 86_400_000;

describe.each(dialects)('review health alerts on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start() {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    test = await createTestApp({
      dialect,
      clock: createFakeClock(),
      config: {
        notifications: {
          smtpUrl: inbox.url,
          smtpFrom: 'Gatehouse <gatehouse@example.test>',
          emailLinkTtlMs: 30 * 60_000,
          emailSessionRole: 'tech_lead',
          pollIntervalMs: 25,
          maxAttempts: 2,
          backoffBaseMs: 1,
        },
        reviewHealth: {
          settings: { fastApprovalFloorSeconds: 10, minDecisions: 5 },
          checkIntervalMs: 0,
          digestIntervalMs: 0,
        },
      },
    });
    cleanup.push(() => test.close());
    for (const [token, email] of [
      [test.tokens.admin, 'admin@example.test'],
      [test.tokens.techLead, 'lead@example.test'],
    ] as const) {
      const response = await test.app.inject({
        method: 'PUT',
        url: '/v1/me/notification-channels',
        headers: bearer(token),
        payload: { channels: ['email'], email },
      });
      expect(response.statusCode).toBe(200);
    }
    return inbox;
  }

  async function stamp(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const gateId = await openTestGate(test, {
        tool: 'shell',
        args: { command: `deploy prod ${n}` },
        risk: 'high',
      });
      test.clock.advance(800);
      expect(
        (await decideTestGate(test, test.tokens.techLead, gateId, { option: 'approve' })).statusCode,
      ).toBe(200);
      test.clock.advance(60_000);
      ids.push(gateId);
    }
    return ids;
  }

  async function mailsAbout(inbox: { messages: ReceivedMail[] }, subject: RegExp, count: number) {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const found = inbox.messages.filter((mail) => subject.test(mail.headers.subject ?? ''));
      if (found.length >= count) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${count} mails with subject ${subject}`);
  }

  async function sent(key: RegExp) {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const page = await test.store.read((tx) => tx.listNotifications({ status: 'sent', limit: 100 }));
      if (page.items.some((n) => key.test(n.gateId))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no notice ${key} was sent`);
  }

  it('emails admins only, once, naming the rubber-stamping pattern and the gates', async () => {
    const inbox = await start();
    const gates = await stamp(6);
    expect(await test.services.reviewHealth.alerts.checkOnce()).toBe(1);
    expect(await test.services.reviewHealth.alerts.checkOnce()).toBe(0);
    const [mail] = await mailsAbout(inbox, /may be rubber-stamping/, 1);
    expect(mail?.to).toEqual(['admin@example.test']);
    expect(mail?.text).toContain('approves high-risk in a median 0.8 s, opened nothing in 6 of 6 approvals');
    for (const id of gates) expect(mail?.text).toContain(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.messages.filter((m) => /rubber-stamping/.test(m.headers.subject ?? ''))).toHaveLength(1);
  });

  it('sends the digest once per period, to admins, on the clock the app runs on', async () => {
    const inbox = await start();
    await stamp(5);
    expect(await test.services.reviewHealth.alerts.digestOnce()).toBe(true);
    expect(await test.services.reviewHealth.alerts.digestOnce()).toBe(false);
    // A week passing while the first is in flight would look like a lost claim and send it again.
    await mailsAbout(inbox, /review digest/, 1);
    await sent(/^review-digest:/);
    test.clock.advance(WEEK);
    expect(await test.services.reviewHealth.alerts.digestOnce()).toBe(true);
    const mails = await mailsAbout(inbox, /review digest/, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      inbox.messages.filter((m) => /review digest/.test(m.headers.subject ?? '')).map((m) => m.to),
    ).toEqual([['admin@example.test'], ['admin@example.test']]);
    expect(mails[0]?.headers.subject).toContain('5 decisions, 1 flagged');
    expect(mails[0]?.text).toContain('lead (tech_lead): 5 decisions');
  });
});
