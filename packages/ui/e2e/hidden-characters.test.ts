import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

const RLO = '\u202e';
const HIDDEN = /[\u202e\u200b]|[\u{e0000}-\u{e007f}]/u;
const WARNING = 'This action contains hidden characters';

/** An agent's request whose tool name, command and an argument hide what they say. */
function openDisguisedGate() {
  return e2e().openGate({
    tool: `invoice_${RLO}fdp.sh`,
    args: { command: `echo safe${RLO} && rm -rf ~`, recipient: 'ops\u{e0041}\u{e0042}' },
    context: { note: 'month\u200bend' },
  });
}

/** The page's text as a person sees it rendered. */
function renderedText(page: Page): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reviewer reads
  return page.evaluate(() => document.body.innerText);
}

describe('hidden characters', () => {
  it('are shown as markers under a warning on the gate page, and never rendered as themselves', async () => {
    const gate = await openDisguisedGate();
    expect(gate.risk).toBe('high');
    const page = await e2e().pageAs(e2e().developer);
    await page.goto(`/gates/${gate.id}`);
    await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
    await page.getByText(WARNING).first().waitFor();

    const action = page.locator('section[aria-labelledby="action-heading"]');
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reviewer reads
    const actionText = await action.innerText();
    expect(actionText).toContain('invoice_⟨U+202E⟩fdp.sh');
    expect(actionText).toContain('echo safe⟨U+202E⟩ && rm -rf ~');
    expect(actionText).toContain('ops⟨U+E0041⟩⟨U+E0042⟩');
    await screenshot(page, 'gate-hidden-characters');
    await page.getByText('All context from the agent').click();
    const text = await renderedText(page);
    expect(text).toContain('month⟨U+200B⟩end');
    expect(text).not.toMatch(HIDDEN);
    expect(await page.title()).not.toMatch(HIDDEN);
    await expectAccessible(page, 'a gate with hidden characters');
  });

  it('are shown as markers with a warning in the inbox row', async () => {
    const gate = await openDisguisedGate();
    const page = await e2e().pageAs(e2e().developer);
    await page.goto('/inbox');
    const link = page.locator(`a[href="/gates/${gate.id}"]`);
    await link.waitFor();
    const row = page.locator('.inbox-row-body').filter({ has: link });
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reviewer reads
    const rowText = await row.innerText();
    expect(rowText).toContain('invoice_⟨U+202E⟩fdp.sh');
    expect(rowText).toContain('Hidden characters');
    expect(rowText).not.toMatch(HIDDEN);
    expect(await renderedText(page)).not.toMatch(HIDDEN);
  });
});
