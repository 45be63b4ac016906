import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { askAndWait } from './agent-requests.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

const option = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^${label}\\b`) });

async function review(gateId: Promise<string>): Promise<Page> {
  const env = e2e();
  const page = await env.pageAs(env.developer);
  await page.goto(`/gates/${await gateId}`);
  await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
  return page;
}

/** The text of the elements that describe `locator`'s element (hint and error). */
const descriptionOf = (page: Page, label: string) =>
  page.getByLabel(label).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

describe('each option with its own reply', () => {
  it('gives each option its own box, labelled with what the agent receives, and sends only that one', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'rm -rf dist/' },
      title: 'Clear dist',
    });
    const page = await review(pending.gateId);
    // A refusal's reason is open from the start; an approval's feedback opens on request.
    const reason = page.getByLabel('Reason the agent is told (Reject)');
    await reason.waitFor();
    expect(await page.getByLabel(/Feedback sent with the approval/).count()).toBe(0);
    await page.getByRole('button', { name: 'Add: feedback sent with the approval (Approve)' }).click();
    const feedback = page.getByLabel('Feedback sent with the approval (Approve)');
    await expect.poll(() => feedback.evaluate((el) => el === document.activeElement)).toBe(true);
    await feedback.fill('this feedback belongs to the approval');
    await expectAccessible(page, 'the decision panel with its reply boxes');

    await reason.fill('dist is the release being uploaded');
    // The one-key shortcut still works once the focus leaves the text boxes.
    await page.getByRole('heading', { name: 'Decision', level: 2 }).click();
    await page.keyboard.press('r');
    // A high-risk gate: the key asks first, naming the reason that goes.
    const confirm = page.getByRole('dialog', { name: /Reject a high-risk action/ });
    await confirm.getByText('dist is the release being uploaded').waitFor();
    await page.keyboard.press('Enter');
    const answer = await pending.answer;
    expect(answer.outcome).toBe('denied');
    expect(answer.reason).toBe('dist is the release being uploaded');
    expect(answer.feedback).toBeNull();
    const decided = (await env.api('GET', `/v1/gates/${await pending.gateId}`, { token: env.admin.token }))
      .gate;
    expect(JSON.stringify(decided.decision)).not.toContain('belongs to the approval');
  });

  it('sends the approval’s feedback with the approval', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'rm -rf coverage/' },
      title: 'Clear coverage',
    });
    const page = await review(pending.gateId);
    await page.getByLabel('Reason the agent is told (Reject)').fill('not this one');
    await page.getByRole('button', { name: 'Add: feedback sent with the approval (Approve)' }).click();
    await page.getByLabel('Feedback sent with the approval (Approve)').fill('keep coverage/.gitkeep');
    await option(page, 'Approve').click();
    const answer = await pending.answer;
    expect(answer.outcome).toBe('approved');
    expect(answer.feedback).toBe('keep coverage/.gitkeep');
    expect(answer.reason).toBeNull();
  });

  it('delegates a recovery to an agent picked by name; the agent hears which one', async () => {
    const env = e2e();
    const other = await env.api('POST', '/v1/agents', { token: env.admin.token, body: { name: 'docs-bot' } });
    const pending = askAndWait(env.agent.sdk, {
      operation: 'Fix the failing docs build',
      gateType: 'recovery_escalation',
      context: { severity: 'CRITICAL', errorSignature: 'docs: broken link' },
    });
    const page = await review(pending.gateId);
    const picker = page.getByLabel('Agent that takes the task over (Delegate)');
    await picker.waitFor();
    await expect.poll(() => picker.locator('option').allTextContents()).toContain('docs-bot');
    expect(await picker.locator('option').allTextContents()).not.toContain('build-bot');

    // Nothing is asked or sent before an agent is chosen.
    await option(page, 'Delegate').click();
    await expect.poll(() => picker.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(page, 'Agent that takes the task over (Delegate)')).toMatch(
      /Choose the agent/,
    );
    expect(await page.getByRole('dialog').count()).toBe(0);

    await picker.selectOption({ label: 'docs-bot' });
    await expectAccessible(page, 'a recovery gate with the delegate picker');
    await option(page, 'Delegate').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delegate the task' }).click();
    const answer = await pending.answer;
    expect(answer.outcome).toBe('delegate');
    expect(answer.delegateTo).toBe(other.agent.id);
    // The ended gate names the agent, not its id.
    await page.locator('.decision-summary').getByText('docs-bot', { exact: true }).waitFor();
  });

  it('expands a constraint to a new limit, refused in the browser at or below the current one', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      operation: 'Render the quarterly report',
      gateType: 'constraint_exception',
      context: { task: 'Render the quarterly report', constraint: 'at most 100 pages', currentLimit: 100 },
    });
    const page = await review(pending.gateId);
    const limit = page.getByLabel('New limit the agent may use (Expand constraint)');
    await limit.waitFor();
    expect(await descriptionOf(page, 'New limit the agent may use (Expand constraint)')).toContain(
      'Current limit: 100',
    );
    await limit.fill('80');
    await option(page, 'Expand constraint').click();
    await expect.poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(page, 'New limit the agent may use (Expand constraint)')).toMatch(
      /above the current limit 100/,
    );
    const gateId = await pending.gateId;
    expect((await env.api('GET', `/v1/gates/${gateId}`, { token: env.admin.token })).gate.status).toBe(
      'pending',
    );

    await limit.fill('140');
    await expectAccessible(page, 'a constraint exception with the new limit');
    await option(page, 'Expand constraint').click();
    const answer = await pending.answer;
    expect(answer.outcome).toBe('expand_constraint');
    expect(answer.newLimit).toBe(140);
    await page.locator('.decision-summary').getByText('140', { exact: true }).waitFor();
  });
});
