import { approvalBinding } from 'gatehouse-hitl-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

async function gatePage(page: Page, gateId: string): Promise<void> {
  await page.goto(`/gates/${gateId}`);
  await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
}

async function headlineOf(page: Page, gateId: string): Promise<string> {
  await gatePage(page, gateId);
  return ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
}

async function bindingOf(page: Page, gateId: string): Promise<{ text: string; full: string | null }> {
  await gatePage(page, gateId);
  const value = page.locator('section[aria-labelledby="action-heading"] .approval-binding code');
  return { text: ((await value.textContent()) ?? '').trim(), full: await value.getAttribute('title') };
}

describe('a gate is named in every list as its page names it', () => {
  it('the inbox row, the batch list and the run’s timeline show the page’s headline, the agent’s title beside it', async () => {
    const env = e2e();
    const run = await env.agent.sdk.createRun({ title: 'Headline run', approvalMode: 'manual' });
    await env.approvePlan(run.id);
    const gate = await env.openGate({
      runId: run.id,
      tool: 'shell_execute',
      args: { command: 'make plan' },
      title: 'plan',
      risk: 'critical',
    });
    const page = await env.pageAs(env.developer);
    const headline = await headlineOf(page, gate.id);
    expect(headline).toMatch(/wants to run shell_execute: make plan$/);

    await page.goto('/inbox');
    const link = page.locator(`a.inbox-row-link[href="/gates/${gate.id}"]`);
    await link.waitFor();
    expect(((await link.textContent()) ?? '').trim()).toBe(headline);
    const row = page.locator('.inbox-row-body').filter({ has: link });
    await row.getByText('Agent’s title').waitFor();
    expect(await row.locator('.inbox-row-meta').textContent()).toContain('plan');
    // A critical gate is left out of a batch, named the same way.
    await page.getByRole('checkbox', { name: `Select ${headline}` }).check();
    const excluded = page.getByRole('list', { name: 'Left out of the batch' });
    await excluded.getByRole('link', { name: headline, exact: true }).waitFor();
    await expectAccessible(page, 'the inbox naming a gate by its headline');

    await page.goto(`/runs/${run.id}`);
    await page.getByRole('link', { name: headline, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'plan', exact: true }).count()).toBe(0);
  });
});

describe('what an approval binds to', () => {
  it('differs between two gates with the same empty arguments, holds on reload, and follows an edit', async () => {
    const env = e2e();
    const first = await env.openGate({ tool: 'shell_execute', args: {}, title: 'Empty one' });
    const second = await env.openGate({ tool: 'shell_execute', args: {}, title: 'Empty two' });
    expect(first.payloadHash).toBe(second.payloadHash);
    const page = await env.pageAs(env.developer);

    const one = await bindingOf(page, first.id);
    const two = await bindingOf(page, second.id);
    expect(one.text).toMatch(/^[0-9a-f]{16}…$/);
    expect(two.text).not.toBe(one.text);
    expect(one.full).toContain(approvalBinding(first));
    await page
      .getByText('An approval binds to this gate and this exact action', { exact: false })
      .first()
      .waitFor();
    await expectAccessible(page, 'a gate page with its approval binding');
    await page.reload();
    expect(await bindingOf(page, second.id)).toEqual(two);

    const edited = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'npm run deploy' },
      title: 'Edit me',
    });
    const before = await bindingOf(page, edited.id);
    const decided = await env.api('POST', `/v1/gates/${edited.id}/decide`, {
      token: env.developer.token,
      body: { option: 'approve', editedArgs: { command: 'npm run deploy -- --dry-run' } },
    });
    expect(decided.gate.decision.payloadHash).not.toBe(edited.payloadHash);
    const after = await bindingOf(page, edited.id);
    expect(after.text).not.toBe(before.text);
    expect(after.full).toContain(approvalBinding(decided.gate));
    expect(after.full).not.toContain(approvalBinding(edited));
    await page.getByText('The approval binds to this gate and this exact action', { exact: false }).waitFor();
  });
});
