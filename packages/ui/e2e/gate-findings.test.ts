import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

const SPEC = [
  "import { total } from './cart';\n",
  "it('adds the prices', () => {\n  expect(total([1, 2])).toBe(3);\n});\n",
  "it('is zero for an empty cart', () => {\n  expect(total([])).toBe(0);\n});\n",
  "it('ignores negative prices', () => {\n  expect(total([-1, 2])).toBe(2);\n});\n",
];

let gateId = '';

beforeAll(async () => {
  const env = e2e();
  const run = await env.agent.sdk.createRun({ title: 'Cart totals' });
  const answer = await env.http.call('POST', '/v1/analyze', {
    token: env.agent.token,
    body: {
      runId: run.id,
      files: [
        {
          path: 'src/cart.test.ts',
          before: SPEC.join(''),
          after: [SPEC[0], SPEC[1], SPEC[3]].join(''),
        },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const gate = answer.body.gates.find((g: { type: string }) => g.type === 'destructive_action');
  gateId = gate.id;
});

describe('a destructive-action gate page', () => {
  it('lists each finding with file:line and its lines before and after, shows the diff the server holds, and says no coverage was sent', async () => {
    const env = e2e();
    const page = await env.pageAs(env.techLead);
    await page.goto(`/gates/${gateId}`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.getByText('no coverage sent').waitFor();
    expect(await heading.textContent()).not.toMatch(/coverage [+-]?0%/);

    const findings = page.getByRole('region', { name: 'Findings', exact: true });
    const item = findings.getByRole('listitem').first();
    await item.getByText('src/cart.test.ts:5', { exact: true }).waitFor();
    await item.getByText('test.removed', { exact: true }).waitFor();
    const hunk = await item.locator('pre').textContent();
    expect(hunk).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/);
    expect(hunk).toContain("-it('is zero for an empty cart', () => {");
    expect(hunk).toContain('-  expect(total([])).toBe(0);');

    const changes = page.getByRole('region', { name: 'Changes', exact: true });
    await changes.getByText('src/cart.test.ts', { exact: true }).waitFor();
    expect(await changes.getByText('The agent sent no diff').count()).toBe(0);
    expect(await changes.locator('.diff-remove').count()).toBeGreaterThan(0);

    await expectAccessible(page, 'a destructive-action gate with its findings and hunks');
    expect(env.pageErrors).toEqual([]);
  });
});
