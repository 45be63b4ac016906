import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { askAndWait } from './agent-requests.js';
import { PHONE } from './browser.js';
import { type E2e, withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

const option = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^${label}\\b`) });

async function openGate(page: Page, gateId: string): Promise<void> {
  await page.goto(`/gates/${gateId}`);
  await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
}

/** Once the agent's request has opened its gate, a page of `person` showing that gate. */
async function reviewAs(
  pending: ReturnType<typeof askAndWait>,
  person: Parameters<E2e['pageAs']>[0],
  options?: Parameters<E2e['pageAs']>[1],
): Promise<{ gateId: string; page: Page }> {
  const gateId = await pending.gateId;
  const page = await e2e().pageAs(person, options);
  await openGate(page, gateId);
  return { gateId, page };
}

/** Waits for a live status message that says `text`. */
async function statusSays(page: Page, text: RegExp): Promise<void> {
  await page.getByRole('status').filter({ hasText: text }).first().waitFor();
}

async function gateOf(gateId: string) {
  return (await e2e().api('GET', `/v1/gates/${gateId}`, { token: e2e().admin.token })).gate;
}

describe('the gate review screen', () => {
  it('approves a gate and the waiting agent goes ahead', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'npm publish --tag next' },
      title: 'Publish the package',
      context: { reason: 'release 1.4.0 is tagged' },
      artifacts: ['package.json', 'CHANGELOG.md'],
      timeoutSeconds: 3600,
      timeoutAction: 'deny',
      confidence: 0.72,
    });
    const { page } = await reviewAs(pending, env.developer);
    await page.getByText('npm publish --tag next').first().waitFor();
    const countdown = page.getByText(/Times out/).first();
    expect(await countdown.textContent()).toMatch(/Times out in .*then: deny/);
    await expectAccessible(page, 'the gate review');
    await screenshot(page, 'gate-review');

    await option(page, 'Approve').click();
    await statusSays(page, /approved/i);
    const answer = await pending.answer;
    expect(answer.outcome).toBe('approved');
    expect(answer.decidedBy).toBe(env.developer.id);
  });

  it('rejects with a reason the agent receives', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'git push --force origin main' },
      title: 'Force-push main',
    });
    const { page } = await reviewAs(pending, env.developer);
    // A gate with no deadline is never given one: it would then end by itself.
    expect(await page.getByRole('button', { name: 'Extend deadline' }).isDisabled()).toBe(true);
    await page.getByText(/a deadline would let it end by itself/).waitFor();
    await page.getByLabel('Reason').fill('never force-push main');
    await option(page, 'Reject').click();
    await statusSays(page, /reject/i);
    const answer = await pending.answer;
    expect(answer.outcome).toBe('denied');
    expect(answer.reason).toBe('never force-push main');
  });

  it('steers: instructions are required, then the agent receives them with the chosen artifacts', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'rm -rf src/legacy' },
      title: 'Remove the legacy module',
      artifacts: ['src/legacy/index.ts', 'src/legacy/util.ts'],
    });
    const { gateId, page } = await reviewAs(pending, env.developer);
    await option(page, 'Steer').click();
    const instructions = page.getByRole('textbox', { name: 'Instructions the agent follows next (Steer)' });
    await instructions.waitFor();

    // Empty instructions are refused before anything is sent.
    await page.getByRole('button', { name: 'Send steer' }).click();
    await expect.poll(() => instructions.getAttribute('aria-invalid')).toBe('true');
    const described = await instructions.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(described).toMatch(/instructions/i);
    expect((await gateOf(gateId)).status).toBe('pending');

    await instructions.fill('Move src/legacy to archive/ instead of deleting it.');
    await page.getByRole('checkbox', { name: 'src/legacy/util.ts' }).check();
    await expectAccessible(page, 'the steer form');
    await page.getByRole('button', { name: 'Send steer' }).click();
    await statusSays(page, /steer/i);

    const answer = await pending.answer;
    expect(answer.outcome).toBe('steered');
    expect(answer.instructions).toBe('Move src/legacy to archive/ instead of deleting it.');
    expect(answer.affectedArtifacts).toEqual(['src/legacy/util.ts']);
  });

  it("offers the gate's own options: Retry on a recovery escalation", async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      operation: 'Fix the flaky checkout test',
      event: 'recovery',
      context: { severity: 'CRITICAL', lastError: 'Timeout waiting for #pay-button' },
      title: 'Recovery: flaky checkout test',
    });
    const gateId = await pending.gateId;
    expect((await gateOf(gateId)).type).toBe('recovery_escalation');
    const page = await env.pageAs(env.developer);
    await openGate(page, gateId);
    await expectAccessible(page, 'a recovery escalation');
    await option(page, 'Retry').click();
    await page.getByRole('status').first().waitFor();
    const answer = await pending.answer;
    expect(answer.outcome).toBe('retry');
    expect(answer.option).toBe('retry');
  });

  it('lets a viewer see but not decide, and the server refuses a forced call', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'bash',
      args: { command: 'make deploy' },
      title: 'Deploy by make',
    });
    const page = await env.pageAs(env.viewer);
    await openGate(page, gate.id);
    await page.getByText("Viewers can't decide gates").first().waitFor();
    expect(await option(page, 'Approve').isDisabled()).toBe(true);
    expect(await option(page, 'Reject').isDisabled()).toBe(true);
    await expectAccessible(page, 'the gate review for a viewer');

    const forced = await page.evaluate(async (id) => {
      const response = await fetch(`/v1/gates/${id}/decide`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ option: 'approve' }),
      });
      return { status: response.status, body: await response.json() };
    }, gate.id);
    expect(forced.status).toBe(403);
    expect(forced.body.error.code).toBe('ROLE_TOO_LOW');
    expect((await gateOf(gate.id)).status).toBe('pending');
  });

  it('tells the second of two reviewers who decided first', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'bash',
      args: { command: 'npm run db:reset' },
      title: 'Reset the db',
    });
    const first = await env.pageAs(env.developer);
    const late = await env.pageAs(env.reviewer);
    const watching = await env.pageAs(env.techLead);
    // The late reviewer hears nothing live, so their click reaches the server after the decision.
    await late.route('**/v1/inbox/events**', (route) => route.abort());
    await late.route('**/v1/runs/*/events**', (route) => route.abort());
    await Promise.all([openGate(first, gate.id), openGate(late, gate.id), openGate(watching, gate.id)]);

    await option(first, 'Approve').click();
    await statusSays(first, /approved/i);

    await late.getByLabel('Reason').fill('looks wrong to me');
    await option(late, 'Reject').click();
    const lost = late.getByText(/already decided/i).first();
    await lost.waitFor();
    expect(await late.locator('main').textContent()).toContain(env.developer.name);

    // A reviewer who keeps the gate open sees it end without doing anything.
    await watching
      .getByText(/already decided/i)
      .first()
      .waitFor();
    expect(await watching.locator('main').textContent()).toContain(env.developer.name);
    expect((await gateOf(gate.id)).decision).toMatchObject({
      option: 'approve',
      decidedBy: env.developer.id,
    });
  });

  it('approves from a phone', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'kubectl rollout restart deploy/api' },
      title: 'Restart the API pods',
      context: { cluster: 'staging' },
    });
    const { page } = await reviewAs(pending, env.developer, { viewport: PHONE, mobile: true });
    await expectAccessible(page, 'the gate review on a phone');
    await screenshot(page, 'gate-review-phone');
    // Nothing wider than the phone: no sideways scrolling to reach the buttons.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await option(page, 'Approve').tap();
    await statusSays(page, /approved/i);
    expect((await pending.answer).outcome).toBe('approved');
  });

  it('approves with the keyboard alone: Tab to the gate, Enter, then the shortcut', async () => {
    const env = e2e();
    const title = 'Keyboard only gate';
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'npm run build:docs' },
      title,
    });
    const view = await env.api('GET', `/v1/gates/${await pending.gateId}`, { token: env.admin.token });
    const page = await env.pageAs(env.techLead);
    await page.goto('/inbox');
    const link = page.getByRole('link', { name: view.headline, exact: true });
    await link.waitFor();

    let focused = false;
    for (let i = 0; i < 60 && !focused; i += 1) {
      await page.keyboard.press('Tab');
      focused = await link.evaluate((el) => el === document.activeElement);
    }
    expect(focused).toBe(true);
    // The focus is visible where it is: a ring on the link or on the row it stretches over.
    const ringed = await link.evaluate((el) =>
      [null, '::after', '::before'].some((part) => {
        const style = getComputedStyle(el, part);
        return (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
      }),
    );
    expect(ringed).toBe(true);

    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
    // `a` approves every gate type, as in the terminal inbox.
    await page.keyboard.press('a');
    await statusSays(page, /approved/i);
    expect((await pending.answer).outcome).toBe('approved');
  });

  it('follows the one key map: a digit that only shows more never ends the gate, abort asks first', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      operation: 'Fix the login redirect loop',
      event: 'recovery',
      context: { severity: 'CRITICAL', lastError: 'Too many redirects' },
      title: 'Recovery: login redirect loop',
    });
    const { gateId, page } = await reviewAs(pending, env.developer);
    for (const [label, key] of [
      ['Approve', 'a'],
      ['Reject', 'r'],
      ['Retry', '1'],
      ['View', '2'],
      ['Delegate', '3'],
      ['Abort', '4'],
    ] as const) {
      expect(await option(page, label).getAttribute('aria-keyshortcuts')).toBe(key);
    }
    await page.keyboard.press('2');
    await page.waitForFunction(() => document.activeElement?.id === 'context-heading');
    await page.keyboard.press('v');
    await page.keyboard.press('d');
    await page.keyboard.press('q');
    expect((await gateOf(gateId)).status).toBe('pending');

    await page.keyboard.press('4');
    const confirm = page.getByRole('dialog', { name: /Abort ends the agent's task/ });
    await confirm.waitFor();
    await expectAccessible(page, 'the confirmation before abort');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await gateOf(gateId)).status).toBe('pending');

    await option(page, 'Abort').click();
    await confirm.getByRole('button', { name: 'Abort the task' }).click();
    const answer = await pending.answer;
    expect(answer.option).toBe('abort');
    expect((await gateOf(gateId)).status).toBe('resolved');
  });

  it('lists the keys on ? and never offers Always where the server refuses it', async () => {
    const env = e2e();
    const wipe = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'rm -rf /srv/uploads' },
      title: 'Always-gated wipe',
    });
    const { gateId, page } = await reviewAs(wipe, env.developer);
    await option(page, 'Approve').waitFor();
    expect(await option(page, 'Always').count()).toBe(0);
    await page.keyboard.press('w');
    expect((await gateOf(gateId)).status).toBe('pending');

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keys' });
    await help.waitFor();
    for (const line of [/^a\s*Approve/, /^r\s*Reject/, /^s\s*Steer/, /^\?\s*These keys/]) {
      await help.getByRole('listitem').filter({ hasText: line }).waitFor();
    }
    expect(await help.getByText(/Always/).count()).toBe(0);
    await expectAccessible(page, 'the key list');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    const plain = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'npm run format' },
      title: 'Plain format',
    });
    const second = await reviewAs(plain, env.developer);
    expect(await option(second.page, 'Always').getAttribute('aria-keyshortcuts')).toBe('w');
    await second.page.keyboard.press('a');
    await statusSays(second.page, /approved/i);
    expect((await plain.answer).outcome).toBe('approved');
  });
});
