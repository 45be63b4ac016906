import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { type E2e, withE2e } from './harness.js';

// Three decisions are enough to judge a reviewer here, so the test stays short.
const e2e = withE2e({ env: { GATEHOUSE_REVIEW_MIN_DECISIONS: '3' } });

async function decideInBrowser(env: E2e, page: Page, command: string): Promise<void> {
  const gate = await env.openGate({ tool: 'shell', args: { command }, title: `Run ${command}` });
  await page.goto(`/gates/${gate.id}`);
  await page.getByRole('heading', { name: 'Proposed action', level: 2 }).waitFor();
  // Reading the arguments: they count as opened once on screen for two seconds.
  await page.waitForTimeout(2500);
  await page.getByRole('button', { name: /^Approve\b/ }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /approved/i })
    .first()
    .waitFor();
}

async function stampThroughApi(env: E2e, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const gate = await env.openGate({
      tool: 'shell',
      args: { command: `deploy prod --build ${n}` },
      risk: 'high',
    });
    const decided = await env.http.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: env.techLead.token,
      body: { option: 'approve' },
    });
    expect(decided.status).toBe(200);
    ids.push(gate.id);
  }
  return ids;
}

describe('the review health screen', () => {
  it('reports what a reviewer opened, shows the plots and names the rubber-stamper to an admin', async () => {
    const env = e2e();
    const careful = await env.pageAs(env.developer);
    await decideInBrowser(env, careful, 'npm publish --tag next');
    expect(await careful.getByRole('link', { name: 'Review health' }).count()).toBe(0);
    const stamped = await stampThroughApi(env, 4);

    const page = env.adminPage;
    await page.getByRole('link', { name: 'Review health' }).click();
    await page.getByRole('heading', { name: 'Review health', level: 1 }).waitFor();
    const alert = page.getByRole('alert');
    await alert.getByRole('heading', { name: 'Possible rubber-stamping' }).waitFor();
    expect(await alert.textContent()).toMatch(
      /theo-lead approves high-risk in a median [\d.]+ s, opened nothing in 4 of 4 approvals/,
    );
    for (const id of stamped) await alert.getByRole('link', { name: id }).waitFor();
    await page.getByRole('img', { name: /Time to decision by risk/ }).waitFor();
    await page.getByRole('img', { name: /Approvals per reviewer per day/ }).waitFor();
    const dana = page.getByRole('row', { name: /dana-developer/ });
    expect(await dana.getByRole('cell').nth(4).textContent()).toBe('0 of 1');
    const theo = page.getByRole('row', { name: /theo-lead/ });
    expect(await theo.textContent()).toContain('Rubber-stamping');
    expect(await theo.getByRole('cell').nth(4).textContent()).toBe('4 of 4');
    await expectAccessible(page, 'the review health screen');

    const health = await env.http.call('GET', '/v1/review-health', { token: env.admin.token });
    const danaFigures = health.body.reviewers.find((r: { name: string }) => r.name === 'dana-developer');
    expect(danaFigures).toMatchObject({
      decisions: 1,
      approvals: 1,
      approvalsViewsKnown: 1,
      blindApprovals: 0,
    });
    expect((await env.http.call('GET', '/v1/review-health', { token: env.techLead.token })).status).toBe(403);
  });
});
