import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE } from './browser.js';
import { eventually } from './eventually.js';
import { type E2e, withE2e } from './harness.js';

const e2e = withE2e();

async function openGatePage(env: E2e, gateId: string, options?: Parameters<E2e['pageAs']>[1]): Promise<Page> {
  const page = await env.pageAs(env.developer, options);
  await page.goto(`/gates/${gateId}`);
  await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
  return page;
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (box === null) throw new Error('the element is not laid out');
  return box;
}

const decide = (env: E2e, gateId: string) =>
  env.api('POST', `/v1/gates/${gateId}/decide`, {
    token: env.techLead.token,
    body: { option: 'reject', reason: 'cleaning up after the test' },
  });

/** Ends every pending gate, so "is another gate waiting" starts from none. */
async function endPendingGates(env: E2e): Promise<void> {
  const listed = await env.api('GET', '/v1/gates?status=pending&limit=100', { token: env.admin.token });
  for (const gate of listed.items) await decide(env, gate.id);
}

const SCRIPT = Array.from({ length: 200 }, (_, i) => `echo "step ${i + 1}"`).join('\n');

describe('the gate page, as a reviewer sees it', () => {
  it('updates "No other gate is waiting" live as other gates open and close', async () => {
    const env = e2e();
    await endPendingGates(env);
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf a/' },
      title: 'Clear a',
    });
    const page = await openGatePage(env, gate.id);
    await page.getByRole('button', { name: /^Approve\b/ }).click();
    const outcome = page.locator('.gate-outcome');
    await outcome.getByText('No other gate is waiting.').waitFor();

    const other = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf b/' },
      title: 'Clear b',
    });
    await outcome.getByRole('link', { name: 'Next gate' }).waitFor();
    expect(await outcome.getByRole('link', { name: 'Next gate' }).getAttribute('href')).toBe(
      `/gates/${other.id}`,
    );
    expect(await outcome.getByText('No other gate is waiting.').count()).toBe(0);

    await decide(env, other.id);
    await outcome.getByText('No other gate is waiting.').waitFor();
    expect(await outcome.getByRole('link', { name: 'Next gate' }).count()).toBe(0);
  });

  it('shows a long argument’s first lines, opens it in full, and keeps the decision panel in view on desktop', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'sh deploy.sh', script: SCRIPT },
      title: 'Run the deploy script',
    });
    const page = await openGatePage(env, gate.id);
    const long = page.locator('details.long-arg');
    await long.getByText('Show all 200 lines').waitFor();
    expect(await long.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await page.getByText('echo "step 200"').isVisible()).toBe(false);

    await long.getByText('Show all 200 lines').click();
    expect(await long.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    await page.getByText('echo "step 200"').scrollIntoViewIfNeeded();
    expect(await page.getByText('echo "step 200"').isVisible()).toBe(true);

    // Scrolled to the end of the long argument, the header is gone but the decision panel is not.
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(300);
    const viewport = page.viewportSize();
    if (viewport === null) throw new Error('no viewport');
    const header = await boxOf(page.locator('.gate-head'));
    expect(header.y + header.height).toBeLessThan(0);
    const panel = await boxOf(page.locator('.gate-decision'));
    expect(panel.y).toBeGreaterThanOrEqual(0);
    expect(panel.y).toBeLessThan(viewport.height / 2);
    const approve = await boxOf(page.getByRole('button', { name: /^Approve\b/ }));
    expect(approve.y).toBeGreaterThanOrEqual(0);
    expect(approve.y + approve.height).toBeLessThanOrEqual(viewport.height);
    await decide(env, gate.id);
  });

  it('puts the proposed action before the buttons on a phone', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf build/' },
      title: 'Clear build',
    });
    const page = await openGatePage(env, gate.id, { viewport: PHONE, mobile: true });
    const action = await boxOf(page.locator('section[aria-labelledby="action-heading"]'));
    const approve = await boxOf(page.getByRole('button', { name: /^Approve\b/ }));
    expect(action.y + action.height).toBeLessThanOrEqual(approve.y);
    // One column: both span most of the phone's width.
    expect(action.width).toBeGreaterThan(PHONE.width * 0.8);
    await decide(env, gate.id);
  });

  it('labels phase reviews strategic or tactical and marks the final review', async () => {
    const env = e2e();
    const first = await env.agent.sdk.createRun({ autonomy: 'dependent' });
    await env.approvePlan(first.id);
    const strategic = await env.agent.sdk.checkpoint({
      runId: first.id,
      phase: 1,
      type: 'strategic',
      wait: false,
    });
    const last = await env.agent.sdk.createRun({ autonomy: 'dependent' });
    await env.approvePlan(last.id);
    const final = await env.agent.sdk.checkpoint({
      runId: last.id,
      phase: 1,
      type: 'tactical',
      jobComplete: true,
      wait: false,
    });
    if (strategic.gateId === null || final.gateId === null) throw new Error('the runs did not freeze');

    const page = await openGatePage(env, strategic.gateId);
    const badges = page.locator('.gate-badges');
    await badges.getByText('Phase 1 · strategic review', { exact: true }).waitFor();
    expect(await badges.textContent()).not.toContain('final');

    await page.goto(`/gates/${final.gateId}`);
    await badges.getByText('Phase 1 · tactical review · final review', { exact: true }).waitFor();
    await eventually(async () => (await page.title()).includes('Gate'), { what: 'the gate title' });
    await decide(env, strategic.gateId);
    await decide(env, final.gateId);
  });
});
