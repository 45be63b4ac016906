import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

const DESIGN = [
  '## Approach',
  '',
  'Sessions live in **one table**, read by the API gateway.',
  '',
  '- no third-party identity provider',
  '- sessions expire after 12 hours',
  '',
  '<script>window.injected = true</script>',
].join('\n');

describe('the intent gate (Gate 0) as a reviewer reads it', () => {
  it('lists the plan’s tasks and renders its design as markdown, raw HTML shown as text', async () => {
    const env = e2e();
    const run = await env.agent.sdk.createRun({ title: 'Add user login', autonomy: 'dependent' });
    const gate = await env.openGate({
      runId: run.id,
      event: 'planning_complete',
      operation: 'implement the plan',
      context: {
        epic: 'Add user login',
        design: DESIGN,
        tasks: [
          { title: 'Add the sessions table', hours: 2 },
          { title: 'Write the login form', hours: 3 },
        ],
      },
    });
    expect(gate.type).toBe('intent_approval');
    const page = await env.pageAs(env.techLead);
    await page.goto(`/gates/${gate.id}`);
    const design = page.getByRole('region', { name: 'The plan’s design, rendered' });
    await design.getByRole('heading', { name: 'Approach', level: 2 }).waitFor();
    expect(await design.locator('strong').textContent()).toBe('one table');
    expect(await design.getByRole('listitem').allInnerTexts()).toEqual([
      'no third-party identity provider',
      'sessions expire after 12 hours',
    ]);
    await design.getByText('<script>window.injected = true</script>').waitFor();
    expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
    const tasks = page
      .locator('.briefing-section')
      .filter({ has: page.getByRole('heading', { name: 'Tasks', level: 3 }) });
    expect(await tasks.getByRole('listitem').allTextContents()).toEqual([
      'Add the sessions table',
      'Write the login form',
    ]);
    await expectAccessible(page, 'the intent gate with its design and tasks');
  });
});
