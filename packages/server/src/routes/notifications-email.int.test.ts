import { createFakeClock } from 'gatehouse-hitl-core';
import { Gatehouse } from 'gatehouse-hitl-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../config.js';
import { type ActionLinkClaims, signActionLink } from '../services/notifications/email/action-links.js';
import { escapeHtml } from '../services/notifications/email/email-render.js';
import { useTestPolicy } from '../testing/gates.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { type ReceivedMail, startSmtpInbox } from '../testing/smtp-inbox.js';
import { bearer, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const DEVELOPER = 'dev@example.test';
const LEAD = 'lead@example.test';
const ADMIN = 'admin@example.test';

type Clocked = { now(): number };

function notifyConfig(smtpUrl: string, overrides: Partial<ServerConfig['notifications']> = {}) {
  return {
    smtpUrl,
    smtpFrom: 'Gatehouse <gatehouse@example.test>',
    emailLinkTtlMs: 30 * 60_000,
    emailSessionRole: 'tech_lead' as const,
    pollIntervalMs: 25,
    maxAttempts: 2,
    backoffBaseMs: 1,
    ...overrides,
  };
}

/** The path and query of a link, for inject. */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

function linksOf(mail: ReceivedMail): Map<string, string> {
  const links = new Map<string, string>();
  for (const match of (mail.text ?? '').matchAll(
    /^([^:\n]+): (http:\/\/\S+\/v1\/email-actions\?token=\S+)$/gm,
  ))
    links.set(match[1] ?? '', match[2] ?? '');
  return links;
}

describe.each(dialects)('notification email on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start<C extends Clocked>(
    options: { clock?: C; refuse?: (to: string) => boolean; sweepIntervalMs?: number } = {},
  ) {
    const inbox = await startSmtpInbox(options.refuse === undefined ? {} : { refuse: options.refuse });
    cleanup.push(() => inbox.close());
    const listening = await startListeningApp({
      dialect,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      config: {
        notifications: notifyConfig(inbox.url),
        ...(options.sweepIntervalMs === undefined ? {} : { sweepIntervalMs: options.sweepIntervalMs }),
      },
    });
    cleanup.push(() => listening.close());
    await useTestPolicy(listening.test);
    const { tokens } = listening.test;
    await setEmail(listening, tokens.developer, DEVELOPER);
    await setEmail(listening, tokens.techLead, LEAD);
    await setEmail(listening, tokens.admin, ADMIN);
    return { inbox, listening };
  }

  async function setEmail(listening: ListeningApp<Clocked>, token: string, email: string | null) {
    const response = await listening.test.app.inject({
      method: 'PUT',
      url: '/v1/me/notification-channels',
      headers: bearer(token),
      payload: { channels: ['email'], email },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  async function agentAsks(listening: ListeningApp<Clocked>, tool: string, args: Record<string, unknown>) {
    let opened: (id: string) => void = () => {};
    const gateId = new Promise<string>((resolve) => {
      opened = resolve;
    });
    const agent = new Gatehouse({ url: listening.url, token: listening.test.tokens.agent });
    const answer = agent.request({ tool, args, onGate: (id) => opened(id) });
    return { gateId: await gateId, answer };
  }

  async function notifications(listening: ListeningApp<Clocked>, query: string) {
    const response = await listening.test.app.inject({
      method: 'GET',
      url: `/v1/notifications?${query}`,
      headers: bearer(listening.test.tokens.admin),
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { notifications: Record<string, unknown>[] }).notifications;
  }

  /** Polls the delivery log until it lists `count` notices. */
  async function notificationsUntil(listening: ListeningApp<Clocked>, query: string, count: number) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = await notifications(listening, query);
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('emails the routed people both parts; the link confirms, decides once, and the agent wakes', async () => {
    const { inbox, listening } = await start();
    const { gateId, answer } = await agentAsks(listening, 'clean_build', {
      path: 'build/<script>alert(1)</script>',
    });
    const [mail] = await inbox.waitFor(1, DEVELOPER);
    if (mail === undefined) throw new Error('no mail');
    expect(mail.headers.subject).toContain('A gate is waiting for you');
    expect(mail.text).toContain('clean_build');
    // The email names the gate as its page does: the agent by its registered name, not its id.
    const shown = await listening.test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(listening.test.tokens.developer),
    });
    const { headline } = shown.json() as { headline: string };
    expect(headline).toMatch(/^alpha wants to run clean_build/);
    expect(mail.text?.split(/\r?\n/)[2]).toBe(headline);
    expect(mail.html).toContain(`<p><strong>${escapeHtml(headline)}</strong></p>`);
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    await inbox.waitFor(1, LEAD);
    await inbox.waitFor(1, ADMIN);
    const approve = linksOf(mail).get('Approve');
    expect(approve).toBeDefined();
    const path = pathOf(approve ?? '');

    const page = await listening.test.app.inject({ method: 'GET', url: path });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Confirm: Approve');
    expect(page.body).not.toContain('<script>alert');
    expect((await listening.test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');

    const confirmed = await listening.test.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'reason=looks+fine',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.body).toContain('Decision recorded');
    const result = await answer;
    expect(result.outcome).toBe('approved');
    const audit = await listening.test.store.queryAudit({ kind: 'gate.decided', subject: gateId });
    expect(audit.items[0]?.actor).toBe(`user:${listening.test.ids.developerId}`);
    expect(audit.items[0]?.data.channel).toBe('email');

    const replay = await listening.test.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(replay.statusCode).toBe(410);
    expect(replay.body).toContain('already used');
    expect((await listening.test.app.inject({ method: 'GET', url: path })).statusCode).toBe(410);

    // Everyone told of the gate hears how it ended, as a reply to the first email.
    const [first, update] = await inbox.waitFor(2, LEAD);
    expect(update?.headers.subject).toContain('A gate was decided');
    expect(update?.headers['in-reply-to']).toBe(first?.headers['message-id']);
    expect(update?.text).toContain('Decided: approve');
    expect(linksOf(update as ReceivedMail).size).toBe(0);
    await inbox.waitFor(2, DEVELOPER);
    await inbox.waitFor(2, ADMIN);
    const sent = await notificationsUntil(listening, `gateId=${gateId}&status=sent`, 6);
    expect(sent.map((n) => n.trigger).sort()).toEqual([
      'gate.decided',
      'gate.decided',
      'gate.decided',
      'gate.opened',
      'gate.opened',
      'gate.opened',
    ]);
    expect(inbox.messages.some((m) => m.to.includes('viewer@example.test'))).toBe(false);
  });

  it('delegates from an email, and keeps a link working when the decision it carried was not recorded', async () => {
    const { inbox, listening } = await start();
    const agent = new Gatehouse({ url: listening.url, token: listening.test.tokens.agent });
    let opened: (id: string) => void = () => {};
    const gateId = new Promise<string>((resolve) => {
      opened = resolve;
    });
    const answer = agent.request({
      operation: 'Fix the flaky checkout test',
      gateType: 'recovery_escalation',
      context: { severity: 'CRITICAL' },
      onGate: (id) => opened(id),
    });
    await gateId;
    const [mail] = await inbox.waitFor(1, DEVELOPER);
    const delegate = pathOf(linksOf(mail as ReceivedMail).get('Delegate') ?? '');
    const page = await listening.test.app.inject({ method: 'GET', url: delegate });
    expect(page.statusCode, page.body).toBe(200);
    const other = listening.test.ids.otherAgentId;
    expect(page.body).toContain(`<select id="delegateTo" name="delegateTo" required>`);
    expect(page.body).toContain(`<option value="${other}">`);
    expect(page.body).not.toContain(`<option value="${listening.test.ids.agentId}">`);
    const post = (form: string) =>
      listening.test.app.inject({
        method: 'POST',
        url: delegate,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
    // A reason longer than the API takes is refused here too, naming it; the link is not spent.
    const tooLong = await post(`delegateTo=${other}&reason=${'x'.repeat(2001)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('reason: must be at most 2000 characters');
    // An agent that does not exist: refused, and the link is not spent.
    const refused = await post('delegateTo=agent_gone&reason=over+to+you');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The link still works');
    const delegated = await post(`delegateTo=${other}&reason=over+to+you`);
    expect(delegated.statusCode, delegated.body).toBe(200);
    expect(await answer).toMatchObject({ outcome: 'delegate', delegateTo: other });
  });

  it('says plainly when a link was altered or expired, and decides nothing', async () => {
    const { inbox, listening } = await start();
    const { gateId, answer } = await agentAsks(listening, 'clean_build', {});
    const [mail] = await inbox.waitFor(1, DEVELOPER);
    const path = pathOf(linksOf(mail as ReceivedMail).get('Approve') ?? '');
    const [body = '', signature = ''] = (new URL(path, 'http://x').searchParams.get('token') ?? '').split(
      '.',
    );
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as ActionLinkClaims;
    const forged = Buffer.from(JSON.stringify({ ...claims, option: 'reject' })).toString('base64url');
    const tampered = await listening.test.app.inject({
      method: 'POST',
      url: `/v1/email-actions?token=${forged}.${signature}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.body).toContain('altered');

    const secret = await listening.test.store.transaction((tx) =>
      tx.ensureNotificationSecret('email-action-links', 'unused'),
    );
    const now = await listening.test.store.databaseNow();
    const stale = signActionLink(secret, { ...claims, id: 'stale-link-id-0000', expiresAt: now - 1 });
    const expired = await listening.test.app.inject({
      method: 'GET',
      url: `/v1/email-actions?token=${stale}`,
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('expired');
    expect((await listening.test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');
    await listening.test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/decide`,
      headers: bearer(listening.test.tokens.developer),
      payload: { option: 'reject', reason: 'cleanup' },
    });
    expect((await answer).outcome).toBe('denied');
  });

  it('warns before the deadline, emails the next role when the timeout escalates, and wants a session for it', async () => {
    const clock = createFakeClock();
    const { inbox, listening } = await start({ clock, sweepIntervalMs: 60_000 });
    const { gateId, answer } = await agentAsks(listening, 't_escalate', {});
    await inbox.waitFor(1, DEVELOPER);
    clock.advance(50_000);
    const warned = await inbox.waitFor(2, DEVELOPER);
    expect(warned[1]?.headers.subject).toContain('about to time out');
    clock.advance(10_000);
    expect(await listening.test.services.timeouts.sweepOnce()).toBe(1);
    const leadMails = await inbox.waitFor(3, LEAD);
    const escalated = leadMails.find((m) => m.headers.subject?.includes('escalated to you'));
    expect(escalated).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      inbox.messages.filter((m) => m.to.includes(DEVELOPER) && m.headers.subject?.includes('escalated')),
    ).toEqual([]);
    expect(
      inbox.messages.filter((m) => m.to.includes(ADMIN) && m.headers.subject?.includes('escalated')),
    ).toEqual([]);

    const path = pathOf(linksOf(escalated as ReceivedMail).get('Approve') ?? '');
    // A link clicked in a mail client arrives without the session cookie (SameSite=Strict): the page
    // shows what would be decided and how to sign in; the form it posts carries the session.
    const token = new URL(path, 'http://x').searchParams.get('token') ?? '';
    const back = `#next=${encodeURIComponent(`/v1/email-actions?token=${encodeURIComponent(token)}`)}`;
    const anonymous = await listening.test.app.inject({ method: 'GET', url: path });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).toContain('Confirm: Approve');
    expect(anonymous.body).toContain(`/login${back}`);
    // What a browser sends with a form posted from the page itself.
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };
    const unsigned = await listening.test.app.inject({
      method: 'POST',
      url: path,
      headers: form,
      payload: '',
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.body).toContain('Sign in first');
    expect(unsigned.body).toContain(`/login${back}`);
    expect((await listening.test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');
    const asDeveloper = await listening.test.app.inject({
      method: 'POST',
      url: path,
      headers: { ...form, cookie: `gatehouse_session=${listening.test.tokens.developer}` },
      payload: '',
    });
    expect(asDeveloper.statusCode).toBe(403);
    expect((await listening.test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');
    const asLead = await listening.test.app.inject({
      method: 'POST',
      url: path,
      headers: { ...form, cookie: `gatehouse_session=${listening.test.tokens.techLead}` },
      payload: '',
    });
    expect(asLead.statusCode, asLead.body).toBe(200);
    expect((await answer).outcome).toBe('approved');
  });

  it('shows a failed delivery with its error in /v1/notifications, and rules decide who hears', async () => {
    const { inbox, listening } = await start({ refuse: (to) => to === LEAD });
    const { tokens } = listening.test;
    await setEmail(listening, tokens.admin, null);
    const first = await agentAsks(listening, 'clean_build', {});
    await inbox.waitFor(1, DEVELOPER);
    const failed = await notificationsUntil(listening, `gateId=${first.gateId}&status=failed`, 2);
    const byUser = new Map(failed.map((n) => [n.userId, n]));
    expect(String(byUser.get(listening.test.ids.techLeadId)?.lastError)).toContain('550');
    expect(byUser.get(listening.test.ids.adminId)?.lastError).toBe('admin has no email address');
    const scrape = await listening.test.app.inject({ method: 'GET', url: '/metrics' });
    expect(scrape.body).toContain('# TYPE gatehouse_notifications gauge');
    expect(scrape.body).toMatch(/^gatehouse_notifications\{channel="email",status="failed"\} 2$/m);
    expect(scrape.body).toMatch(/^gatehouse_notifications\{channel="email",status="(sent|pending)"\} [1-9]/m);

    const badRule = await listening.test.app.inject({
      method: 'POST',
      url: '/v1/notification-rules',
      headers: bearer(tokens.techLead),
      payload: { name: 'x', risks: ['extreme'], channels: ['email'] },
    });
    expect(badRule.statusCode).toBe(400);
    expect(badRule.body).toContain('risks');
    const byDeveloper = await listening.test.app.inject({
      method: 'POST',
      url: '/v1/notification-rules',
      headers: bearer(tokens.developer),
      payload: { name: 'x', channels: ['email'] },
    });
    expect(byDeveloper.statusCode).toBe(403);
    const rule = await listening.test.app.inject({
      method: 'POST',
      url: '/v1/notification-rules',
      headers: bearer(tokens.techLead),
      payload: { name: 'Deploys to leads', gateTypes: ['no_such_type'], channels: ['email'] },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const before = inbox.messages.length;
    const second = await agentAsks(listening, 'clean_build', {});
    await listening.test.app.inject({
      method: 'POST',
      url: `/v1/gates/${second.gateId}/decide`,
      headers: bearer(tokens.developer),
      payload: { option: 'reject', reason: 'no' },
    });
    await second.answer;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await notifications(listening, `gateId=${second.gateId}`)).toEqual([]);
    expect(inbox.messages.length).toBe(before);
    const own = await listening.test.app.inject({
      method: 'GET',
      url: `/v1/notifications?userId=${listening.test.ids.adminId}`,
      headers: bearer(tokens.developer),
    });
    expect(own.statusCode).toBe(403);
    await listening.test.app.inject({
      method: 'POST',
      url: `/v1/gates/${first.gateId}/decide`,
      headers: bearer(tokens.developer),
      payload: { option: 'reject', reason: 'no' },
    });
    await first.answer;
  });
});
