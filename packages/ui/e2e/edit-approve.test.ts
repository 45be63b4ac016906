import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

async function waitForPendingGate(type: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { items } = await e2e().api('GET', `/v1/gates?status=pending&type=${type}`, {
      token: e2e().admin.token,
    });
    if (items?.length > 0) return items[0].id as string;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no pending ${type} gate`);
}

async function openGatePage(gateId: string): Promise<Page> {
  const page = await e2e().pageAs(e2e().developer);
  await page.goto(`/gates/${gateId}`);
  await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
  return page;
}

describe('edit, then approve, in the browser', () => {
  it('a person edits the command, sees the change, approves, and the agent runs the edited command', async () => {
    const env = e2e();
    const ran: Array<Record<string, unknown>> = [];
    const publish = env.agent.sdk.withApproval(async (args: Record<string, unknown>) => ran.push(args), {
      tool: 'shell_execute',
    });
    const running = publish({ command: 'npm publish --tag next', retries: 2 });
    const gateId = await waitForPendingGate('tool_call');
    const page = await openGatePage(gateId);

    await page.getByRole('button', { name: 'Edit & approve' }).click();
    const form = page.getByRole('form', { name: 'Edit the arguments, then approve' });
    await form.getByLabel('retries').fill('two');
    await form.getByText('editedArgs.retries: not valid JSON').waitFor();
    expect(await form.getByRole('button', { name: 'Approve edited action' }).isDisabled()).toBe(true);
    await form.getByLabel('retries').fill('2');
    await form.getByLabel('command').fill('npm publish --tag beta');
    const changes = form.getByRole('list', { name: 'Changes to the arguments' });
    await changes.getByText('npm publish --tag next').waitFor();
    await changes.getByText('npm publish --tag beta').waitFor();
    await expectAccessible(page, 'the edit & approve form');
    await form.getByRole('button', { name: 'Approve edited action' }).click();

    await running;
    expect(ran).toEqual([{ command: 'npm publish --tag beta', retries: 2 }]);
    const audit = await env.api('GET', `/v1/audit?subject=${gateId}&kind=gate.decided`, {
      token: env.admin.token,
    });
    expect(audit.items[0].data).toMatchObject({
      edited: true,
      originalArgs: { command: 'npm publish --tag next', retries: 2 },
      editedArgs: { command: 'npm publish --tag beta', retries: 2 },
    });
    expect(audit.items[0].data.approvedPayloadHash).not.toBe(audit.items[0].data.payloadHash);
  }, 90_000);

  it('previews a one-line edit of a long text as a line diff, and shows the approval as made with edits wherever the gate shows', async () => {
    const env = e2e();
    const run = await env.agent.sdk.createRun({ title: 'Write the release notes', approvalMode: 'manual' });
    await env.approvePlan(run.id);
    const lines = ['# Release notes', '', '- faster search', '- fewer retries', '- a new inbox', ''];
    const proposed = lines.join('\n');
    const edited = proposed.replace('- fewer retries', '- fewer, smarter retries');
    const written: Array<Record<string, unknown>> = [];
    const write = env.agent.sdk.withApproval(async (args: Record<string, unknown>) => written.push(args), {
      tool: 'write_file',
      request: { runId: run.id },
    });
    const running = write({ path: 'docs/release-notes.md', content: proposed });
    const gateId = await waitForPendingGate('tool_call');
    const page = await openGatePage(gateId);

    await page.getByRole('button', { name: 'Edit & approve' }).click();
    const form = page.getByRole('form', { name: 'Edit the arguments, then approve' });
    await form.getByLabel('content').fill(edited);
    const changes = form.getByRole('list', { name: 'Changes to the arguments' });
    await changes.getByText('1 line added (+), 1 removed (−)', { exact: false }).waitFor();
    const removed = changes.locator('.diff-removed');
    expect(await removed.allInnerTexts()).toEqual([expect.stringContaining('- fewer retries')]);
    expect(await removed.allInnerTexts()).not.toEqual([expect.stringContaining('# Release notes')]);
    await form.getByRole('button', { name: 'Approve edited action' }).click();
    await running;
    expect(written).toEqual([{ path: 'docs/release-notes.md', content: edited }]);

    const decided = page.getByRole('region', { name: 'Decision' });
    await decided.getByText('Approved with edits').waitFor();
    await decided.getByText('- fewer, smarter retries').first().waitFor();
    const action = page.getByRole('region', { name: 'Approved action (edited)' });
    expect(await action.getByText('- fewer, smarter retries', { exact: false }).count()).toBeGreaterThan(0);
    await expectAccessible(page, 'a gate approved with edits');

    await page.goto(`/runs/${run.id}`);
    await page.getByText('Decision: Approved with edits').first().waitFor();
    await page.getByText('- fewer, smarter retries', { exact: false }).first().waitFor();
    await expectAccessible(page, 'a run whose gate was approved with edits');
  }, 90_000);

  it('shows the policy’s refusal of an edit next to the form and records nothing', async () => {
    const env = e2e();
    const asking = env.agent.sdk.request({
      tool: 'shell_execute',
      args: { command: 'ls /srv/build' },
      signal: AbortSignal.timeout(60_000),
    });
    const gateId = await waitForPendingGate('tool_call');
    const page = await openGatePage(gateId);
    await page.getByRole('button', { name: 'Edit & approve' }).click();
    const form = page.getByRole('form', { name: 'Edit the arguments, then approve' });
    await form.getByLabel('command').fill('rm -rf /srv/data');
    await form.getByRole('button', { name: 'Approve edited action' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: /refused/ })
      .waitFor();
    expect((await env.api('GET', `/v1/gates/${gateId}`, { token: env.admin.token })).gate.status).toBe(
      'pending',
    );
    await env.api('POST', `/v1/gates/${gateId}/decide`, {
      token: env.admin.token,
      body: { option: 'reject', reason: 'done' },
    });
    expect((await asking).outcome).toBe('denied');
  }, 90_000);

  it('a person answers an agent’s question in a text box', async () => {
    const env = e2e();
    const asking = env.agent.sdk.ask('Which region should the bucket live in?', { timeoutSeconds: 600 });
    const gateId = await waitForPendingGate('question');
    const page = await openGatePage(gateId);
    await page.getByText('Which region should the bucket live in?').first().waitFor();
    await page.getByRole('button', { name: /^Answer\b/ }).click();
    await page.getByText('Write the answer the agent receives.').waitFor();
    await page.getByLabel('Answer the agent receives').fill('eu-west-1, next to the database');
    await page.getByRole('button', { name: /^Answer\b/ }).click();
    expect(await asking).toBe('eu-west-1, next to the database');
  }, 90_000);
});
