import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();
let admin: Page;
let ruleGateId = '';

/** Some history for the audit trail, the metrics and the remembered rules. */
beforeAll(async () => {
  const env = e2e();
  const decide = (gateId: string, token: string, body: Record<string, unknown>) =>
    env.api('POST', `/v1/gates/${gateId}/decide`, { token, body });
  for (let i = 0; i < 3; i += 1) {
    const approved = await env.openGate({ tool: 'bash', args: { command: `npm test -- shard ${i}` } });
    await decide(approved.id, env.developer.token, { option: 'approve' });
    const rejected = await env.openGate({ tool: 'bash', args: { command: `rm -rf tmp-${i}` } });
    await decide(rejected.id, env.techLead.token, { option: 'reject', reason: 'keep it' });
  }
  const always = await env.openGate({ tool: 'git_command', args: { command: 'git fetch' } });
  ruleGateId = always.id;
  const remembered = await decide(always.id, env.developer.token, {
    option: 'approve_always',
    remember: { scope: 'agent' },
  });
  expect(remembered.rule).not.toBeNull();
  admin = await env.pageAs(env.admin);
});

describe('audit, metrics, rules and administration', () => {
  it('verifies the audit chain and offers the export', async () => {
    await admin.goto('/audit');
    await admin.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    await admin.getByText('gate.decided').first().waitFor();
    await expectAccessible(admin, 'the audit screen');
    await screenshot(admin, 'audit');

    await admin.getByRole('button', { name: 'Verify chain' }).click();
    const result = admin.getByRole('status').filter({ hasText: /intact/i });
    await result.waitFor();
    const verified = await e2e().api('GET', '/v1/audit/verify', { token: e2e().admin.token });
    expect(verified.ok).toBe(true);
    expect(await result.textContent()).toContain(String(verified.count));

    const exportLink = admin.getByRole('link', { name: 'Export' });
    expect(await exportLink.getAttribute('href')).toMatch(/\/v1\/audit\/export/);
  });

  it('draws the metrics as charts', async () => {
    await admin.goto('/metrics');
    await admin.getByRole('heading', { name: 'Metrics', level: 1 }).waitFor();
    await admin.locator('main svg').first().waitFor();
    expect(await admin.locator('main svg').count()).toBeGreaterThanOrEqual(2);
    await expectAccessible(admin, 'the metrics screen');
    await screenshot(admin, 'metrics');
  });

  it('lists the remembered rule and revokes it after a confirmation', async () => {
    const page = await e2e().pageAs(e2e().developer);
    await page.goto('/rules');
    await page.getByRole('heading', { name: 'Remembered rules', level: 1 }).waitFor();
    await page.getByText('git_command').first().waitFor();
    await expectAccessible(page, 'the remembered rules');
    await screenshot(page, 'rules');

    await page.getByRole('button', { name: 'Revoke' }).click();
    // Nothing is revoked until the person confirms.
    const before = await e2e().api('GET', '/v1/rules', { token: e2e().admin.token });
    expect(before.rules.some((r: { sourceGateId: string }) => r.sourceGateId === ruleGateId)).toBe(true);
    await page.getByRole('button', { name: /^Yes, revoke/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Revoked/ })
      .waitFor();
    expect(await page.getByRole('button', { name: /revoke/i }).count()).toBe(0);
    const rules = await e2e().api('GET', '/v1/rules', { token: e2e().admin.token });
    expect(rules.rules.filter((r: { sourceGateId: string }) => r.sourceGateId === ruleGateId)).toEqual([]);
  });

  it('shows the agents and the people to an admin', async () => {
    await admin.goto('/admin/agents');
    await admin.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await admin.getByText('build-bot').first().waitFor();
    await expectAccessible(admin, 'the agents screen');
    await screenshot(admin, 'agents');

    await admin.goto('/admin/users');
    await admin.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await admin.getByText('vera-viewer').first().waitFor();
    await expectAccessible(admin, 'the users screen');
    await screenshot(admin, 'users');
  });
});
