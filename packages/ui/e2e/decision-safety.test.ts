import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { askAndWait } from './agent-requests.js';
import { withE2e } from './harness.js';
import { ReviewAgent } from './review-agent.js';

const e2e = withE2e();

const option = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^${label}\\b`) });

async function openGate(page: Page, gateId: string): Promise<void> {
  await page.goto(`/gates/${gateId}`);
  await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
  await page.getByText(/^Live:/).waitFor();
}

async function gateOf(gateId: string) {
  return (await e2e().api('GET', `/v1/gates/${gateId}`, { token: e2e().admin.token })).gate;
}

/** What has the focus: its tag, accessible label or text, and the dialog or form it is in. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (el === null || el === document.body) return { tag: 'body', name: '', within: '', visible: false };
    const labelled = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
    // The accessible name: what is hidden from screen readers (a key's <kbd>) is no part of it.
    const shown = el.cloneNode(true) as HTMLElement;
    shown.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => {
      hidden.remove();
    });
    const name = (el.getAttribute('aria-label') ?? labelled ?? shown.textContent ?? '').trim();
    const box = el.getBoundingClientRect();
    const visible = box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
    const within = el.closest('dialog') ? 'dialog' : (el.closest('form')?.className ?? '');
    return { tag: el.tagName.toLowerCase(), name, within, visible };
  });
}

/** Moves the focus off every field (onto the page itself), where single keys act. */
async function focusPage(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

async function statusSays(page: Page, text: RegExp): Promise<void> {
  await page.getByRole('status').filter({ hasText: text }).first().waitFor();
}

describe('keys that end a risky gate ask first', () => {
  it('asks before `a` approves a critical gate: Escape keeps it pending, Enter approves', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'git push --force origin main' },
      title: 'Force-push main',
      risk: 'critical',
    });
    const gateId = await pending.gateId;
    const page = await env.pageAs(env.developer);
    await openGate(page, gateId);
    await focusPage(page);

    await page.keyboard.press('a');
    const confirm = page.getByRole('dialog', { name: /Approve a critical-risk action/ });
    await confirm.waitFor();
    expect(await focused(page)).toMatchObject({ within: 'dialog', name: 'Approve' });
    await expectAccessible(page, 'the confirmation before a key approves a critical gate');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    // Back where it was, so the next single key works again.
    expect(await focused(page)).toMatchObject({ tag: 'body' });
    expect((await gateOf(gateId)).status).toBe('pending');

    await page.keyboard.press('a');
    await confirm.waitFor();
    expect(await focused(page)).toMatchObject({ within: 'dialog', name: 'Approve' });
    await page.keyboard.press('Enter');
    await statusSays(page, /approved/i);
    expect(await focused(page)).not.toMatchObject({ within: 'dialog' });
    expect((await pending.answer).outcome).toBe('approved');
  });

  it('asks before `r` rejects a high gate, and names the reason that goes', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'rm -rf build' },
      title: 'Clear the build',
    });
    const gateId = await pending.gateId;
    expect((await gateOf(gateId)).risk).toBe('high');
    const page = await env.pageAs(env.developer);
    await openGate(page, gateId);
    await page.getByLabel('Reason the agent is told (Reject)').fill('the build is still uploading');
    await focusPage(page);

    await page.keyboard.press('r');
    const confirm = page.getByRole('dialog', { name: /Reject a high-risk action/ });
    await confirm.waitFor();
    await confirm.getByText('the build is still uploading').waitFor();
    expect(await focused(page)).toMatchObject({ within: 'dialog', name: 'Reject' });
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await focused(page)).toMatchObject({ tag: 'body' });
    expect((await gateOf(gateId)).status).toBe('pending');

    await page.keyboard.press('r');
    await confirm.waitFor();
    expect(await focused(page)).toMatchObject({ within: 'dialog', name: 'Reject' });
    await page.keyboard.press('Enter');
    const answer = await pending.answer;
    expect(answer.outcome).toBe('denied');
    expect(answer.reason).toBe('the build is still uploading');
  });

  it('keeps the single key on a medium gate', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'npm run lint' },
      title: 'Lint',
      risk: 'medium',
    });
    const page = await env.pageAs(env.developer);
    await openGate(page, await pending.gateId);
    await focusPage(page);
    await page.keyboard.press('a');
    await statusSays(page, /approved/i);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await pending.answer).outcome).toBe('approved');
  });
});

describe('a question answered by keyboard', () => {
  const ask = () =>
    askAndWait(e2e().agent.sdk, {
      gateType: 'question',
      operation: 'Which database should the service use?',
    });

  it('1, the answer, Tab reaches Send answer, Enter sends it', async () => {
    const env = e2e();
    const pending = ask();
    const gateId = await pending.gateId;
    const page = await env.pageAs(env.developer);
    await openGate(page, gateId);
    await focusPage(page);

    await page.keyboard.press('1');
    await expect
      .poll(() => focused(page))
      .toMatchObject({ tag: 'textarea', name: 'Answer the agent receives' });
    await page.keyboard.type('Postgres, as the other services');
    expect(await focused(page)).toMatchObject({ tag: 'textarea', name: 'Answer the agent receives' });
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Send answer' });
    await page.keyboard.press('Enter');
    const answer = await pending.answer;
    expect(answer.outcome).toBe('answer');
    expect(answer.answer).toBe('Postgres, as the other services');
  });

  it('asks before Reject throws a typed answer away; Ctrl+Enter sends the answer', async () => {
    const env = e2e();
    const pending = ask();
    const gateId = await pending.gateId;
    const page = await env.pageAs(env.developer);
    await openGate(page, gateId);
    await focusPage(page);

    await page.keyboard.press('1');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'textarea' });
    await page.keyboard.type('SQLite');
    await option(page, 'Reject').click();
    const confirm = page.getByRole('dialog', { name: /Reject and discard your answer/ });
    await confirm.waitFor();
    expect(await focused(page)).toMatchObject({ within: 'dialog', name: 'Cancel' });
    await expectAccessible(page, 'the confirmation before a reject discards an answer');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Reject' });
    expect((await gateOf(gateId)).status).toBe('pending');

    await page.getByLabel('Answer the agent receives').focus();
    await page.keyboard.press('Control+Enter');
    const answer = await pending.answer;
    expect(answer.outcome).toBe('answer');
    expect(answer.answer).toBe('SQLite');
  });

  it('sends the steer form with Meta+Enter', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'shell_execute',
      args: { command: 'npm run lint -- --fix' },
      title: 'Fix the lint',
      risk: 'medium',
    });
    const page = await env.pageAs(env.developer);
    await openGate(page, await pending.gateId);
    await focusPage(page);
    await page.keyboard.press('s');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'textarea', within: 'steer-form' });
    await page.keyboard.type('Fix only src/');
    await page.keyboard.press('Meta+Enter');
    const answer = await pending.answer;
    expect(answer.outcome).toBe('steered');
    expect(answer.instructions).toBe('Fix only src/');
  });
});

describe('a form that opens takes the focus', () => {
  it('w opens Always in view with the focus in its first field', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'npm run format' },
      title: 'Format the sources',
      risk: 'medium',
    });
    const page = await env.pageAs(env.developer);
    await openGate(page, gate.id);
    await focusPage(page);
    await page.keyboard.press('w');
    await page.locator('form.always-form').waitFor();
    await expect
      .poll(() => focused(page))
      .toMatchObject({ tag: 'input', within: 'always-form', visible: true });
  });

  it("the run page's Steer opens its form in view with the focus in it", async () => {
    const env = e2e();
    const run = await env.agent.sdk.createRun({ title: 'Steered by keyboard' });
    const page = await env.pageAs(env.developer);
    await page.goto(`/runs/${run.id}`);
    const steer = page.getByRole('button', { name: 'Steer', exact: true });
    await steer.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => focused(page))
      .toMatchObject({ tag: 'textarea', name: 'Instructions', visible: true });
  });

  it('Request changes… opens its feedback in view with the focus in it', async () => {
    const env = e2e();
    const agent = await ReviewAgent.start(env, 'Feedback by keyboard');
    try {
      await agent.branch('phase-1-strategic', 'origin/main');
      await agent.commit({ 'docs/plan.md': '# Plan\n\nOne step.\n' }, 'Plan');
      await agent.push('phase-1-strategic');
      const answer = await agent.checkpoint({ phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
      const page = await env.pageAs(env.developer);
      await page.goto(`/reviews/${answer.review?.id}`);
      const open = page.getByRole('button', { name: 'Request changes…' });
      await open.focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => focused(page))
        .toMatchObject({ tag: 'textarea', name: 'Feedback for the agent (required)', visible: true });
    } finally {
      agent.close();
    }
  });

  it('Edit & approve opens its form with the focus in the first argument', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'npm run test -- --watch' },
      title: 'Run the tests',
      risk: 'medium',
    });
    const page = await env.pageAs(env.developer);
    await openGate(page, gate.id);
    const edit = page.getByRole('button', { name: 'Edit & approve' });
    await edit.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ within: 'edit-args-form', visible: true });
  });
});

describe('a paused run says so wherever its gates show', () => {
  it('shows Paused on the inbox row and the gate page, and says so on approve', async () => {
    const env = e2e();
    const run = await env.agent.sdk.createRun({ title: 'Upgrade held by a person' });
    await env.approvePlan(run.id);
    const gate = await env.openGate({
      runId: run.id,
      tool: 'shell_execute',
      args: { command: 'npm install left-pad@latest' },
      title: 'Install left-pad while paused',
      risk: 'medium',
    });
    const inbox = await env.pageAs(env.developer);
    await inbox.goto('/inbox');
    const row = inbox.locator('.inbox-row-body').filter({ hasText: 'Install left-pad while paused' });
    await row.waitFor();
    expect(await row.getByText('Run paused', { exact: true }).count()).toBe(0);

    const paused = await env.api('POST', `/v1/runs/${run.id}/interventions`, {
      token: env.developer.token,
      body: { kind: 'pause' },
    });
    expect(paused.run.status).toBe('paused');
    // Live: the row changes without a reload.
    await row.getByText('Run paused', { exact: true }).waitFor();
    await expectAccessible(inbox, 'the inbox with a paused run');

    const page = await env.pageAs(env.developer);
    await openGate(page, gate.id);
    await page.getByText('Run paused', { exact: true }).first().waitFor();
    await page
      .getByText(/the agent goes ahead only when the run is resumed/i)
      .first()
      .waitFor();
    await expectAccessible(page, 'the gate page of a paused run');
    await option(page, 'Approve').click();
    await statusSays(page, /approved.*paused.*resumed/i);
  });

  it('shows Stopped on the gate page of a stopped run', async () => {
    const env = e2e();
    const run = await env.agent.sdk.createRun({ title: 'Upgrade ended by a person' });
    await env.approvePlan(run.id);
    const gate = await env.openGate({
      runId: run.id,
      tool: 'shell_execute',
      args: { command: 'npm install is-odd@latest' },
      title: 'Install is-odd',
      risk: 'medium',
    });
    await env.api('POST', `/v1/runs/${run.id}/interventions`, {
      token: env.developer.token,
      body: { kind: 'stop' },
    });
    const page = await env.pageAs(env.developer);
    await openGate(page, gate.id);
    await page.getByText('Run stopped', { exact: true }).first().waitFor();
  });
});
