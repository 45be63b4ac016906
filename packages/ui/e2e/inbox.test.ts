import { DEFAULT_POLICY_YAML } from 'gatehouse-hitl-core';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

/** The default policy plus one rule whose gates need a signed decision (a batch cannot sign). */
const POLICY_WITH_SIGNED_PAYMENTS = `${DEFAULT_POLICY_YAML}
  - id: signed-payments
    priority: 950
    match: { tools: [wire_money] }
    action: { gate: { signature: true } }
    reason: Money moves need a signed decision.
`;

/** A gate's inbox row link, named by the headline its page leads with. */
const row = (page: Page, headline: string) => page.getByRole('link', { name: headline, exact: true });

/** The headline the server gives the gate the agent titled `title` (titles are unique in this file). */
async function headlineOf(title: string): Promise<string> {
  const page = await e2e().api('GET', '/v1/gates?limit=500', { token: e2e().admin.token });
  const gate = page.items.find((item: { title: string }) => item.title === title);
  if (!gate) throw new Error(`no gate titled ${title}`);
  expect(gate.headline).not.toBe(title);
  return gate.headline;
}

/** The batch's left-out line for the gate named `headline`, with the reason it gives. */
function leftOut(excluded: Locator, headline: string, reason: RegExp): Locator {
  return excluded
    .getByRole('listitem')
    .filter({ has: excluded.page().getByRole('link', { name: headline, exact: true }) })
    .filter({ hasText: reason });
}

async function openInbox(page: Page): Promise<void> {
  await page.goto('/inbox');
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  await page.getByText('Live', { exact: true }).waitFor();
}

async function gateStatus(gateId: string): Promise<string> {
  const view = await e2e().api('GET', `/v1/gates/${gateId}`, { token: e2e().admin.token });
  return view.gate.status;
}

describe('the inbox', () => {
  it('says so when nothing is waiting', async () => {
    const page = await e2e().pageAs(e2e().developer);
    await openInbox(page);
    await page.getByText('Nothing waiting for you').waitFor();
    await expectAccessible(page, 'the empty inbox');
  });

  it('shows a gate the moment an agent opens it, and drops it the moment it is decided elsewhere', async () => {
    const env = e2e();
    const page = await env.pageAs(env.developer);
    await openInbox(page);
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf dist/' },
      title: 'Delete the dist folder',
    });
    const deleting = await headlineOf('Delete the dist folder');
    await row(page, deleting).waitFor();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );

    await expectAccessible(page, 'the inbox');

    const decided = await env.api('POST', `/v1/gates/${gate.id}/decide`, {
      token: env.techLead.token,
      body: { option: 'reject', reason: 'not today' },
    });
    expect(decided.gate.status).toBe('rejected');
    await row(page, deleting).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
  });

  it('filters by risk and keeps the filter in the address', async () => {
    const env = e2e();
    await env.openGate({
      tool: 'shell_execute',
      args: { command: 'ls -la /srv/app' },
      title: 'List the files',
      risk: 'low',
    });
    await env.openGate({
      tool: 'shell_execute',
      args: { command: 'terraform apply' },
      title: 'Apply the infrastructure plan',
      risk: 'critical',
    });
    const [listing, applying] = [
      await headlineOf('List the files'),
      await headlineOf('Apply the infrastructure plan'),
    ];
    const page = await env.pageAs(env.developer);
    await openInbox(page);
    await row(page, listing).waitFor();

    await page.getByLabel('Risk').selectOption('critical');
    await row(page, listing).waitFor({ state: 'detached' });
    await row(page, applying).waitFor();
    expect(new URL(page.url()).searchParams.get('risk')).toBe('critical');

    // The address is shareable: opened afresh, the filter holds.
    const again = await env.pageAs(env.reviewer);
    await again.goto(new URL(page.url()).pathname + new URL(page.url()).search);
    await row(again, applying).waitFor();
    expect(await row(again, listing).count()).toBe(0);
  });

  it('approves several gates with one reason and reports the gate it refused', async () => {
    const env = e2e();
    const put = await env.http.call('PUT', '/v1/policy', {
      token: env.admin.token,
      body: { source: POLICY_WITH_SIGNED_PAYMENTS },
    });
    expect(put.status).toBe(200);
    const first = await env.openGate({
      tool: 'bash',
      args: { command: 'npm run migrate' },
      title: 'Batch one',
    });
    const second = await env.openGate({
      tool: 'bash',
      args: { command: 'npm run seed' },
      title: 'Batch two',
    });
    const signed = await env.openGate({ tool: 'wire_money', args: { amount: 100 }, title: 'Batch signed' });
    expect(signed.signatureRequired).toBe(true);

    const [one, two, signing] = [
      await headlineOf('Batch one'),
      await headlineOf('Batch two'),
      await headlineOf('Batch signed'),
    ];
    const page = await env.pageAs(env.developer);
    await openInbox(page);
    await row(page, signing).waitFor();
    await screenshot(page, 'inbox');
    for (const headline of [one, two, signing]) {
      await page.getByRole('checkbox', { name: `Select ${headline}`, exact: true }).check();
    }
    await page.getByLabel('Reason').fill('routine maintenance');
    await expectAccessible(page, 'the inbox with a batch selected');
    const excluded = page.getByRole('list', { name: 'Left out of the batch' });
    await leftOut(excluded, signing, /needs a signed decision/).waitFor();
    await page.getByRole('button', { name: 'Approve 2 selected' }).click();

    await eventually(async () => (await gateStatus(first.id)) === 'approved', {
      what: 'the first gate approved',
    });
    expect(await gateStatus(second.id)).toBe('approved');
    expect(await gateStatus(signed.id)).toBe('pending');
    await row(page, one).waitFor({ state: 'detached' });
    await row(page, signing).waitFor();

    const decision = await env.api('GET', `/v1/gates/${first.id}`, { token: env.admin.token });
    expect(decision.gate.decision).toMatchObject({
      option: 'approve',
      decidedBy: env.developer.id,
      reason: 'routine maintenance',
    });
  });

  it('leaves out the gates a batch may not end, says why, and decides only the others', async () => {
    const env = e2e();
    const plain = await env.openGate({
      tool: 'bash',
      args: { command: 'npm run lint' },
      title: 'Mixed lint',
    });
    const deploy = await env.openGate({
      operation: 'deploy to production',
      gateType: 'deployment_approval',
      title: 'Mixed deploy',
    });
    const wipe = await env.openGate({
      tool: 'bash',
      args: { command: 'rm -rf /var/lib/app && psql -c "DROP TABLE users"' },
      title: 'Mixed wipe',
    });
    const recovery = await env.openGate({
      operation: 'Fix the flaky checkout test',
      event: 'recovery',
      context: { attempts: 3, severity: 'CRITICAL', lastError: 'Timeout waiting for #pay-button' },
      title: 'Mixed recovery',
    });
    expect(recovery.type).toBe('recovery_escalation');

    const [linting, deploying, wiping, recovering] = [
      await headlineOf('Mixed lint'),
      await headlineOf('Mixed deploy'),
      await headlineOf('Mixed wipe'),
      await headlineOf('Mixed recovery'),
    ];
    const page = await env.pageAs(env.developer);
    await openInbox(page);
    for (const headline of [linting, deploying, wiping, recovering]) {
      await row(page, headline).waitFor();
      await page.getByRole('checkbox', { name: `Select ${headline}`, exact: true }).check();
    }
    const excluded = page.getByRole('list', { name: 'Left out of the batch' });
    await leftOut(excluded, deploying, /deployment_approval gates are decided one at a time/).waitFor();
    await leftOut(excluded, wiping, /always gated|risk is/).waitFor();
    await leftOut(excluded, recovering, /recovery_escalation gates are decided one at a time/).waitFor();
    expect(await excluded.getByRole('link', { name: linting, exact: true }).count()).toBe(0);
    await page.getByText('1 of 4 selected can be decided together').waitFor();
    await expectAccessible(page, 'the inbox with gates left out of a batch');
    await page.getByRole('button', { name: 'Approve 1 selected' }).click();

    await eventually(async () => (await gateStatus(plain.id)) === 'approved', {
      what: 'the lint gate approved',
    });
    await page.getByText('1 approved, 0 refused').waitFor();
    for (const gate of [deploy, wipe, recovery]) expect(await gateStatus(gate.id)).toBe('pending');
    await row(page, deploying).waitFor();
  });

  it('shows a viewer no batch controls', async () => {
    const page = await e2e().pageAs(e2e().viewer);
    await openInbox(page);
    await row(page, await headlineOf('Batch signed')).waitFor();
    expect(await page.getByRole('button', { name: /^Approve \d+ selected$/ }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: /^Select / }).count()).toBe(0);
  });
});
