import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

let gateId = '';

beforeAll(async () => {
  const env = e2e();
  const run = await env.agent.sdk.createRun({ title: 'Ruby port' });
  const answer = await env.http.call('POST', '/v1/analyze', {
    token: env.agent.token,
    body: {
      runId: run.id,
      files: [
        {
          path: 'lib/legacy/cart.rb',
          before: 'def total\n  1\nend\n',
          after: 'def total\n  raise NotImplementedError\nend\n',
        },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  gateId = answer.body.gates.find((g: { type: string }) => g.type === 'false_positive_override').id;
});

describe('the scope of a Whitelist decision', () => {
  it('is chosen and seen by the tech lead before it is sent, and a glob matching every file is refused by name', async () => {
    const env = e2e();
    const page = await env.pageAs(env.techLead);
    await page.goto(`/gates/${gateId}`);
    await page.getByRole('button', { name: 'Create signing key' }).click();
    await page.getByText('Registered', { exact: true }).waitFor();
    await page.getByLabel('Reason the agent is told (Whitelist)').fill('the ruby port raises until it lands');
    await page
      .getByRole('button', { name: /^Whitelist\b/ })
      .first()
      .click();

    const form = page.locator('form').filter({ hasText: 'Whitelist: choose what the entry allows' });
    await form.getByText('Allows lazy.placeholder_body in lib/legacy/cart.rb, for only agent').waitFor();
    await form.getByText('Your signature covers this scope').waitFor();
    await form.getByLabel('Files matching a glob I type').check();
    await form.getByLabel('Glob', { exact: true }).fill('**');
    await form.getByRole('button', { name: 'Whitelist with this scope' }).click();
    await form.getByText('** matches every file').waitFor();
    expect(await form.getByLabel('Glob', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'the whitelist scope form with a refused glob');

    await form.getByLabel('Glob', { exact: true }).fill('lib/legacy/**');
    await form.getByLabel('Every agent').check();
    await form.getByLabel('Days until it needs review again').fill('30');
    await form
      .getByText('Allows lazy.placeholder_body in files matching lib/legacy/**, for every agent, for 30 days')
      .waitFor();
    await expectAccessible(page, 'the whitelist scope form, filled in');
    await form.getByRole('button', { name: 'Whitelist with this scope' }).click();

    await eventually(
      async () => {
        const view = await env.api('GET', `/v1/gates/${gateId}`, { token: env.admin.token });
        return view.gate.status !== 'pending';
      },
      { what: 'the gate decided' },
    );
    const summary = page.locator('.decision-summary');
    await summary.getByText('Whitelist scope').waitFor();
    await summary.getByText('files matching lib/legacy/**, every agent, 30 days').waitFor();
    await expectAccessible(page, 'the decided gate with its whitelist scope');
    const view = await env.api('GET', `/v1/gates/${gateId}`, { token: env.admin.token });
    expect(view.gate.decision.whitelist).toEqual({
      path: 'lib/legacy/**',
      agents: 'every',
      expiresInDays: 30,
    });
    const list = await env.api('GET', '/v1/whitelists', { token: env.admin.token });
    const entry = list.whitelists.find((row: { sourceGateId: string }) => row.sourceGateId === gateId);
    expect(entry).toMatchObject({ scope: 'file', path: 'lib/legacy/**', agentId: null });
    expect(entry.expiresAt - entry.createdAt).toBe(30 * 86_400_000);
    expect(env.pageErrors).toEqual([]);
  });
});
