import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { PHONE } from './browser.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

async function topOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (box === null) throw new Error('the element is not laid out');
  return box.y;
}

const PATCH = [
  '--- a/src/config.ts',
  '+++ b/src/config.ts',
  '@@ -1,3 +1,3 @@',
  ' export const config = {',
  '-  retries: 3,',
  '+  retries: 5,',
  ' };',
].join('\n');

describe('on a phone (390×844)', () => {
  it('shows the first inbox row without scrolling', async () => {
    const env = e2e();
    const run = await env.agent.sdk.createRun({ title: 'Tidy the build', approvalMode: 'manual' });
    await env.approvePlan(run.id);
    await env.openGate({
      runId: run.id,
      tool: 'shell_execute',
      args: { command: 'rm -rf dist/' },
      title: 'Clear dist',
    });
    const page = await env.pageAs(env.admin, { viewport: PHONE, mobile: true });
    await page.goto('/inbox');
    const first = page.locator('.inbox-row-link').first();
    await first.waitFor();
    const top = await topOf(first);
    // Not at the screen's foot either: in its upper part, so the next row starts on screen too (was y=722).
    expect(top, `the first row starts at y=${top}`).toBeLessThan(PHONE.height * 0.6);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'the inbox on a phone');
  });

  it('puts the change before the decision on a gate page, in reading order and on screen', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf build/ && git apply fix.patch', diff: PATCH },
      title: 'Apply the retry fix',
    });
    const page = await env.pageAs(env.developer, { viewport: PHONE, mobile: true });
    await page.goto(`/gates/${gate.id}`);
    const changes = page.getByRole('heading', { name: /Changes/, level: 2 });
    const decision = page.getByRole('heading', { name: 'Decision', level: 2 });
    await changes.waitFor();
    await decision.waitFor();
    const changeFirst = await page.evaluate(() => {
      const change = document.getElementById('changes-heading');
      const form = document.getElementById('decision-heading');
      if (!change || !form) throw new Error('a heading is missing');
      return Boolean(change.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(changeFirst).toBe(true);
    expect(await topOf(changes)).toBeLessThan(await topOf(decision));
    await expectAccessible(page, 'a gate with a change on a phone');
  });
});
