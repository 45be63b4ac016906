import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';
import { ReviewAgent } from './review-agent.js';

const e2e = withE2e();

const PLAN = ['# Plan', '', 'Serve health checks.', '', 'Log every request.', ''].join('\n');
const NOTES = ['Notes', ''].join('\n');

let agent: ReviewAgent;
let page: Page;
let reviewId = '';
let gateId = '';

const fileSection = (name: string) => page.getByRole('region', { name, exact: true });

/** Decides the review's gate as the developer, through the API. */
async function decide(option: 'approve' | 'request_changes', feedback?: string): Promise<void> {
  const env = e2e();
  const answer = await env.http.call('POST', `/v1/gates/${gateId}/decide`, {
    token: env.developer.token,
    body: feedback === undefined ? { option } : { option, feedback },
  });
  if (answer.status !== 200) throw new Error(`decision refused: ${JSON.stringify(answer.body)}`);
}

beforeAll(async () => {
  const env = e2e();
  agent = await ReviewAgent.start(env, 'Revisions');
  page = await env.pageAs(env.developer);
  await agent.branch('phase-1-strategic', 'origin/main');
  await agent.commit({ 'docs/plan.md': PLAN, 'docs/notes.md': NOTES }, 'Plan and notes');
  await agent.push('phase-1-strategic');
  const answer = await agent.checkpoint({ phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
  reviewId = answer.review?.id ?? '';
  gateId = answer.gate?.id ?? '';
});

afterAll(() => agent?.close());

describe('a review over two revisions', () => {
  it('shows only the changes since revision 1 when the person picks it, and all changes again after', async () => {
    await decide('request_changes', 'Say which port.');
    const feedback = await agent.feedback();
    await agent.branch('phase-1-strategic-rev-2', feedback?.headCommit ?? '');
    await agent.commit(
      { 'docs/plan.md': PLAN.replace('Serve health checks.', 'Serve health checks on port 8080.') },
      'Port',
    );
    await agent.push('phase-1-strategic-rev-2');
    const answer = await agent.checkpoint({ phase: 1, type: 'strategic', branch: 'phase-1-strategic-rev-2' });
    gateId = answer.gate?.id ?? '';

    await page.goto(`/reviews/${reviewId}`);
    await page.getByRole('heading', { name: 'Files changed (2)' }).waitFor();
    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Changes since revision 1' });
    await page.getByRole('heading', { name: 'Changed since revision 1 (1)' }).waitFor();
    expect(await fileSection('docs/notes.md').count()).toBe(0);
    const plan = fileSection('docs/plan.md');
    await plan.getByRole('cell', { name: 'Serve health checks on port 8080.' }).waitFor();
    // The interdiff's old side is revision 1's line, not main's (where the file did not exist).
    await plan.getByRole('cell', { name: 'removed: Serve health checks.', exact: true }).waitFor();
    expect(await plan.locator('tr.review-line-add, tr.review-line-del').count()).toBe(2);
    await expectAccessible(page, 'a review showing the changes since revision 1');

    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'All changes against main' });
    await page.getByRole('heading', { name: 'Files changed (2)' }).waitFor();
    await fileSection('docs/notes.md').waitFor();
  });
});
