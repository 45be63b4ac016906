import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

const BROKEN_RULE = `
  - id: block-prod-writes
    priority: 950
    condition: 'args.path.startsWith("prod/") &&'
    action: deny
    reason: Production files are written by the release pipeline only.
`;

const FIXED_RULE = `
  - id: block-prod-writes
    priority: 950
    condition: 'tool == "write_file" && string(args.path).startsWith("prod/")'
    action: deny
    reason: Production files are written by the release pipeline only.
`;

async function activeVersion(): Promise<number> {
  return (await e2e().api('GET', '/v1/policy', { token: e2e().admin.token })).version;
}

async function openPolicy(page: Page): Promise<string> {
  await page.goto('/policy');
  await page.getByRole('heading', { name: 'Policy', level: 1 }).waitFor();
  const editor = page.getByLabel('Policy YAML');
  await eventually(async () => (await editor.inputValue()).includes('rules:'), {
    what: 'the policy loads into the editor',
  });
  return editor.inputValue();
}

/** The errors the screen lists, wherever it shows them (an alert, or the region named "Errors"). */
const errors = (page: Page) => page.getByRole('alert').or(page.getByRole('region', { name: 'Errors' }));

describe('the policy screen', () => {
  it('shows a broken rule at the rule and stores nothing', async () => {
    const page = await e2e().pageAs(e2e().admin);
    const original = await openPolicy(page);
    const before = await activeVersion();
    await expectAccessible(page, 'the policy screen');
    await screenshot(page, 'policy');

    const broken = `${original.trimEnd()}\n${BROKEN_RULE}`;
    await page.getByLabel('Policy YAML').fill(broken);
    await page.getByRole('button', { name: 'Save policy' }).click();
    await errors(page).first().waitFor();
    const listed = (await errors(page).first().textContent()) ?? '';
    // The problem is named by its rule and placed on one of the rule's own lines in the editor.
    const line = Number(/block-prod-writes\W*line (\d+)/.exec(listed)?.[1]);
    const lines = broken.split('\n');
    const ruleStart = lines.indexOf('  - id: block-prod-writes') + 1;
    expect(line, listed).toBeGreaterThanOrEqual(ruleStart);
    expect(line).toBeLessThan(ruleStart + 5);
    expect(await page.getByLabel('Policy YAML').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'the policy screen with errors');
    await screenshot(page, 'policy-errors');
    expect(await activeVersion()).toBe(before);
  });

  it('saves a valid policy as a new version', async () => {
    const page = await e2e().pageAs(e2e().admin);
    const original = await openPolicy(page);
    const before = await activeVersion();

    await page.getByLabel('Policy YAML').fill(`${original.trimEnd()}\n${FIXED_RULE}`);
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('status').filter({ hasText: /valid/i }).first().waitFor();
    await page.getByRole('button', { name: 'Save policy' }).click();
    await eventually(async () => (await activeVersion()) === before + 1, { what: 'a new policy version' });
    expect(await errors(page).count()).toBe(0);
    await page
      .getByText(new RegExp(`\\b(v|version )${before + 1}\\b`, 'i'))
      .first()
      .waitFor();

    const active = await e2e().api('GET', '/v1/policy', { token: e2e().admin.token });
    expect(active.source).toContain('id: block-prod-writes');
  });

  it('answers a dry run: which rule decides, and what happens', async () => {
    const page = await e2e().pageAs(e2e().developer);
    await openPolicy(page);
    await page.getByLabel('Tool', { exact: true }).fill('write_file');
    await page.getByLabel('Arguments (JSON)').fill('{ "path": "prod/app.env" }');
    await page.getByRole('button', { name: 'Dry run' }).click();
    const answer = page.getByRole('status').filter({ hasText: 'block-prod-writes' });
    await answer.waitFor();
    expect(await answer.textContent()).toMatch(/den(y|ied)/i);
    await expectAccessible(page, 'the policy screen with a dry run');
  });
});
