import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { PHONE } from './browser.js';
import { eventually } from './eventually.js';
import { type E2e, type Person, withE2e } from './harness.js';

const e2e = withE2e();

/** Every screen by its address and its heading; the gate and run screens get ids once they exist. */
function screens(ids: { runId: string; gateId: string }): [string, string, RegExp][] {
  return [
    ['Inbox', '/inbox', /^Inbox$/],
    ['Gate', `/gates/${ids.gateId}`, /./],
    ['Runs', '/runs', /^Runs$/],
    ['Run', `/runs/${ids.runId}`, /^Run /],
    ['Agents', '/admin/agents', /^Agents$/],
    ['Users', '/admin/users', /^Users$/],
    ['Rules', '/rules', /^Remembered rules$/],
    ['Trust', '/trust', /^Trust$/],
    ['Policy', '/policy', /^Policy$/],
    ['Account', '/account', /^Account$/],
    ['Metrics', '/metrics', /^Metrics$/],
    ['Notifications', '/notifications', /^Notifications$/],
    ['Whitelists', '/whitelists', /^Whitelists$/],
    ['Audit', '/audit', /^Audit$/],
  ];
}

/** Opens `path` and waits until its heading shows and nothing says it is still loading. */
async function visit(page: Page, path: string, heading: RegExp): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
  await eventually(async () => (await page.getByText(/^Loading\b/).count()) === 0, {
    what: `${path} loaded`,
  });
}

async function someData(env: E2e): Promise<{ runId: string; gateId: string }> {
  const run = await env.agent.sdk.createRun({ title: 'Upgrade the dependencies' });
  await env.approvePlan(run.id);
  const gate = await env.openGate({
    runId: run.id,
    tool: 'shell_execute',
    args: { command: 'npm install left-pad@latest' },
    title: 'Install left-pad',
  });
  return { runId: run.id, gateId: gate.id };
}

async function sweep(env: E2e, person: Person, options: Parameters<E2e['pageAs']>[1], where: string) {
  const ids = await someData(env);
  const page = await env.pageAs(person, options);
  for (const [name, path, heading] of screens(ids)) {
    // Screens a role may not open still render (saying so); they are checked like the rest.
    await visit(page, path, heading);
    await expectAccessible(page, `the ${name} screen ${where}`);
  }
}

describe('WCAG 2.2 AA on every screen', () => {
  it('holds for an admin on a phone', async () => {
    const env = e2e();
    await sweep(env, env.admin, { viewport: PHONE, mobile: true }, 'on a phone');
  });

  it('holds for a viewer, who sees the screens read-only', async () => {
    const env = e2e();
    await sweep(env, env.viewer, undefined, 'for a viewer');
  });

  it('holds on the login screen on a phone', async () => {
    const env = e2e();
    const page = await env.anonymousPage({ viewport: PHONE, mobile: true });
    await visit(page, '/login', /^Sign in to Gatehouse$/);
    await expectAccessible(page, 'the login screen on a phone');
  });
});
