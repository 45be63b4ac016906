import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

describe('names where a person reads them, not raw ids', () => {
  it('offers the inbox Run filter by run title, and filters by it', async () => {
    const env = e2e();
    const titled = await env.agent.sdk.createRun({
      title: 'Migrate the billing database',
      approvalMode: 'manual',
    });
    await env.approvePlan(titled.id);
    const other = await env.agent.sdk.createRun({ title: 'Tidy the docs', approvalMode: 'manual' });
    await env.approvePlan(other.id);
    const gates = [
      await env.openGate({
        runId: titled.id,
        tool: 'shell_execute',
        args: { command: 'rm -rf tmp/' },
        title: 'Clear tmp',
      }),
      await env.openGate({
        runId: other.id,
        tool: 'shell_execute',
        args: { command: 'rm -rf old/' },
        title: 'Clear old',
      }),
    ];
    const [tmp, old] = await Promise.all(
      gates.map((gate) => env.api('GET', `/v1/gates/${gate.id}`, { token: env.admin.token })),
    );

    const page = await env.pageAs(env.developer);
    await page.goto('/inbox');
    const filter = page.getByLabel('Run', { exact: true });
    await filter
      .locator('option', { hasText: 'Migrate the billing database' })
      .waitFor({ state: 'attached' });
    const texts = await filter.locator('option').allTextContents();
    expect(texts).toContain('Tidy the docs');
    expect(texts.some((text) => text.includes(titled.id) || text.includes(other.id))).toBe(false);
    await filter.selectOption({ label: 'Migrate the billing database' });
    expect(new URL(page.url()).searchParams.get('run')).toBe(titled.id);
    await page.getByRole('link', { name: tmp.headline, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: old.headline, exact: true }).count()).toBe(0);
    await expectAccessible(page, 'the inbox filtered by a run named by its title');
  });

  it('names a gate in the audit by what it asks, with its id one hover away', async () => {
    const env = e2e();
    const gate = await env.openGate({
      tool: 'shell_execute',
      args: { command: 'rm -rf cache/' },
      title: 'Clear cache',
    });
    const view = await env.api('GET', `/v1/gates/${gate.id}`, { token: env.admin.token });
    const headline: string = view.briefing.summary;
    const page = await env.pageAs(env.admin);
    await page.goto(`/audit?subject=${gate.id}`);
    const link = page.getByRole('link', { name: `Gate: ${headline}` }).first();
    await link.waitFor();
    expect(await link.getAttribute('title')).toBe(gate.id);
    expect(await page.getByRole('link', { name: gate.id, exact: true }).count()).toBe(0);
    await expectAccessible(page, 'the audit naming gates by their headline');
  });
});
