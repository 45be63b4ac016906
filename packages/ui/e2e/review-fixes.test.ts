import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

/** Records every desktop notification the page creates, keeping the objects so a test can click one. */
const RECORD_NOTIFICATIONS = () => {
  const Real = window.Notification;
  const made: { title: string; body: string; note: Notification }[] = [];
  (window as unknown as { made: typeof made }).made = made;
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      made.push({ title, body: options?.body ?? '', note: this });
    }
  }
  window.Notification = Recording as typeof Notification;
};

const notificationBodies = (page: Page) =>
  page.evaluate(() => (window as unknown as { made: { body: string }[] }).made.map((n) => n.body));

describe('the web app, as a reviewer uses it', () => {
  it('notifies the person of a gate for them, counts it in the tab title, and opens it on click', async () => {
    const env = e2e();
    const page = await env.pageAs(env.developer);
    await page.context().grantPermissions(['notifications'], { origin: env.url });
    await page.addInitScript(RECORD_NOTIFICATIONS);
    await page.goto('/inbox');
    await page.getByText('Desktop notifications on').waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    await eventually(async () => (await page.title()) === 'Inbox — Gatehouse', { what: 'the idle title' });
    expect(await notificationBodies(page)).toEqual([]);

    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf out/' },
      title: 'Clean out',
    });
    // The notification names the gate as its page and the inbox do: by its headline.
    const { headline } = await env.api('GET', `/v1/gates/${gate.id}`, { token: env.developer.token });
    expect(headline).toMatch(/rm -rf out\/$/);
    await eventually(async () => (await notificationBodies(page)).includes(headline), {
      what: 'a notification for the new gate',
    });
    await eventually(async () => (await page.title()) === '(1) Inbox — Gatehouse', { what: 'the count' });

    await page.evaluate(() => {
      const made = (window as unknown as { made: { note: Notification }[] }).made;
      made[0]?.note.onclick?.(new Event('click'));
    });
    await page.waitForURL(`**/gates/${gate.id}`);
    await eventually(async () => /^\(1\) Gate: .*— Gatehouse$/.test(await page.title()), {
      what: 'the gate title',
    });
    await env.api('POST', `/v1/gates/${gate.id}/decide`, {
      token: env.developer.token,
      body: { option: 'reject', reason: 'not now' },
    });
  });

  it('asks for notification permission only from the visible control, never on load', async () => {
    const env = e2e();
    const page = await env.pageAs(env.developer);
    await page.addInitScript(() => {
      const asked: string[] = [];
      (window as unknown as { asked: string[] }).asked = asked;
      Notification.requestPermission = async () => {
        asked.push('asked');
        return 'denied';
      };
    });
    await page.goto('/inbox');
    const control = page.getByRole('button', { name: 'Turn on desktop notifications' });
    await control.waitFor();
    expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toEqual([]);
    await control.click();
    await page.getByText("Desktop notifications are blocked in this browser's settings").waitFor();
    expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toEqual(['asked']);
  });

  it('leads an inbox row with the readable headline and confidence, not the tool name', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf cache/' },
      title: 'shell_execute',
      confidence: 0.42,
    });
    const page = await env.pageAs(env.developer);
    await page.goto('/inbox');
    const link = page.locator(`a[href="/gates/${gate.id}"]`);
    await eventually(async () => /build-bot wants to/.test((await link.textContent()) ?? ''), {
      what: 'the headline with the agent name',
    });
    expect(await link.textContent()).not.toBe('shell_execute');
    await page.getByText('Confidence 42/100').first().waitFor();
    await expectAccessible(page, 'the inbox with a row');

    await link.click();
    await page.getByRole('heading', { name: 'Confidence', level: 2 }).waitFor();
    // The default timeout of a tool call denies: the band text must not promise it proceeds.
    const band = await page.locator('.confidence p.muted').textContent();
    expect(band).toContain('Low band: 0.2 to 0.5');
    expect(band).not.toMatch(/proceeds after a delay/);
    await expectAccessible(page, 'a gate page');
  });

  it('says a decision was not recorded while the server is unreachable, and keeps the reason typed', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf tmp/' },
      title: 'Clear tmp',
    });
    const page = await env.pageAs(env.developer);
    await page.goto(`/gates/${gate.id}`);
    await page.route('**/v1/gates/*/decide', (route) => route.abort('connectionrefused'));
    const reason = page.getByLabel('Reason', { exact: false }).first();
    await reason.fill('tmp is still in use');
    await page.getByRole('button', { name: /^Reject/ }).click();
    await page.getByText(/Your decision was not recorded/).waitFor();
    expect(await reason.inputValue()).toBe('tmp is still in use');
    expect((await env.api('GET', `/v1/gates/${gate.id}`, { token: env.admin.token })).gate.status).toBe(
      'pending',
    );
    await page.unroute('**/v1/gates/*/decide');
    await env.api('POST', `/v1/gates/${gate.id}/decide`, {
      token: env.developer.token,
      body: { option: 'reject', reason: 'cleanup' },
    });
  });

  it('searches the audit by agent name with the search and page in the address, and names actors', async () => {
    const env = e2e();
    const page = await env.pageAs(env.developer);
    await page.goto('/audit?who=build-bot&limit=25');
    await page.getByRole('heading', { name: /Events/ }).waitFor();
    await page.locator('.audit-table tbody tr').first().waitFor();
    // The names are looked up once the page is there: until then a row shows the actor's id.
    const actors = page.locator('.audit-table td[data-label="Actor"]');
    await expect.poll(async () => new Set(await actors.allTextContents())).toEqual(new Set(['build-bot']));
    expect(await page.getByLabel('Person or agent').inputValue()).toBe('build-bot');
    await expectAccessible(page, 'the audit search');

    // The second page has an address of its own: opening it shows page 2, past the newest event.
    const first = await env.api('GET', '/v1/audit?actorName=build-bot&order=desc&limit=1', {
      token: env.developer.token,
    });
    const after = encodeURIComponent(first.nextCursor);
    await page.goto(`/audit?who=build-bot&after=${after}`);
    await page.getByText('page 2').waitFor();
    await page.locator('.audit-table tbody tr').first().waitFor();
    const seqs = await page.locator('.audit-table td[data-label="#"]').allTextContents();
    expect(seqs).not.toContain(String(first.items[0].seq));
  });
});
