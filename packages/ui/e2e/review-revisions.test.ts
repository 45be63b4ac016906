import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
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

  it('keeps the request for changes and its feedback in the conversation on revision 2', async () => {
    const conversation = page.locator('.review-conversation');
    const entry = conversation.getByRole('article', {
      name: `${e2e().developer.name} requested changes on revision 1`,
    });
    await entry.getByText('Say which port.').waitFor();
    await expectAccessible(page, 'a review whose conversation keeps the request for changes');
  });

  it('keeps comments pending, seen only by their author, until the review is submitted with a summary', async () => {
    const plan = fileSection('docs/plan.md');
    const toggle = plan.getByRole('button', { name: 'docs/plan.md', exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await page.getByRole('button', { name: 'Comment on line 5 of docs/plan.md', exact: true }).click();
    await page.getByRole('textbox', { name: 'Comment on line 5 of docs/plan.md' }).fill('Which log format?');
    await plan.getByRole('button', { name: 'Add to review' }).click();
    const thread = page.getByRole('article', { name: 'Thread on line 5 of docs/plan.md' });
    await thread.getByText('Pending', { exact: true }).waitFor();
    const yours = page.getByRole('form', { name: 'Your review' });
    await yours.getByText('1 pending comment, seen only by you until you submit.').waitFor();

    const other = await e2e().pageAs(e2e().reviewer);
    await other.goto(`/reviews/${reviewId}`);
    await other.getByRole('heading', { name: 'Files changed (2)' }).waitFor();
    await other.getByRole('cell', { name: 'Log every request.' }).first().waitFor();
    expect(await other.getByText('Which log format?').count()).toBe(0);
    await expectAccessible(page, 'a review with a pending comment');

    await yours.getByRole('textbox', { name: 'Summary' }).fill('One question, otherwise good.');
    await yours.getByRole('radio', { name: 'Approve' }).check();
    await yours.getByRole('button', { name: 'Submit review' }).click();
    const entry = page.getByRole('article', { name: `${e2e().developer.name} approved on revision 2` });
    await entry.getByText('One question, otherwise good.').waitFor();
    await yours.getByText(/No pending comments/).waitFor();
    expect(await thread.getByText('Pending', { exact: true }).count()).toBe(0);

    await other.reload();
    await other
      .getByRole('article', { name: 'Thread on line 5 of docs/plan.md' })
      .getByText('Which log format?')
      .waitFor();
    await other.getByRole('article', { name: `${e2e().developer.name} approved on revision 2` }).waitFor();
  });

  it('warns with the open-thread count before merging, and shows the policy’s refusal naming the thread', async () => {
    const env = e2e();
    const current = await env.api('GET', '/v1/policy', { token: env.admin.token });
    const source = String(current.source);
    const strict = source.trim().startsWith('{')
      ? JSON.stringify({ ...JSON.parse(source), reviews: { requireResolvedThreads: true } })
      : `${source.trimEnd()}\nreviews:\n  requireResolvedThreads: true\n`;
    const format = source.trim().startsWith('{') ? 'json' : 'yaml';
    await env.api('PUT', '/v1/policy', { token: env.admin.token, body: { source: strict, format } });
    try {
      await page.getByRole('button', { name: 'Approve & merge' }).click();
      const warning = page
        .getByRole('alert')
        .filter({ hasText: 'This review has 1 open thread. Merge anyway?' });
      await warning.waitFor();
      await expectAccessible(page, 'a review asking before a merge with open threads');
      await page.getByRole('button', { name: 'Merge with 1 open thread' }).click();
      const refusal = page.locator('.review-decision').getByRole('alert');
      await refusal.filter({ hasText: '1 open thread must be resolved before merging' }).waitFor();
      const comments = await env.api('GET', `/v1/reviews/${reviewId}/comments`, { token: env.viewer.token });
      const open = comments.items.find((comment: { body: string }) => comment.body === 'Which log format?');
      expect(await refusal.textContent()).toContain(open.id);
      const gate = await env.api('GET', `/v1/gates/${gateId}`, { token: env.admin.token });
      expect(gate.gate.status).toBe('pending');

      const thread = page.getByRole('article', { name: 'Thread on line 5 of docs/plan.md' });
      await thread.getByRole('button', { name: 'Resolve' }).click();
      await thread.getByRole('button', { name: 'Reopen' }).waitFor();
      await page
        .locator('.review-decision')
        .getByText('1 open thread', { exact: true })
        .waitFor({ state: 'detached' });
    } finally {
      await env.api('PUT', '/v1/policy', { token: env.admin.token, body: { source, format } });
    }
  });

  it('merges with the squash title and description the person edited', async () => {
    const title = page.getByRole('textbox', { name: 'Title' });
    expect(await title.inputValue()).toBe('Phase 1 (strategic) of Revisions');
    await title.fill('Health checks on port 8080');
    await page.getByRole('textbox', { name: 'Description' }).fill('Logs every request.');
    await expectAccessible(page, 'a review with its squash message');
    await page.getByRole('button', { name: 'Approve & merge' }).click();
    await page.getByText(/Squash-merged into main as/).waitFor();
    await agent.git(['fetch', '--quiet', 'origin']);
    const message = await agent.git(['log', '-1', '--format=%B', 'origin/main']);
    expect(message.split('\n').slice(0, 3)).toEqual([
      'Health checks on port 8080',
      '',
      'Logs every request.',
    ]);
    expect(message).toContain(`Gatehouse-Review: ${reviewId}`);
  });
});

describe('a suggestion on a range of lines, and files marked viewed', () => {
  it('comments on lines 2-3 with a suggestion, applies it as the person’s commit, and counts viewed files until a commit changes them', async () => {
    const env = e2e();
    const other = await ReviewAgent.start(env, 'Suggestions');
    try {
      await other.branch('phase-1-strategic', 'origin/main');
      await other.commit({ 'src/app.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' }, 'App');
      await other.push('phase-1-strategic');
      const answer = await other.checkpoint({ phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
      await page.goto(`/reviews/${answer.review?.id}`);
      await page.getByRole('heading', { name: 'Files changed (1)' }).waitFor();
      await page.getByRole('button', { name: 'Comment on line 3 of src/app.ts', exact: true }).click();
      await page.getByRole('textbox', { name: 'Comment on line 3 of src/app.ts' }).fill('Fold b and c.');
      await page.getByRole('spinbutton', { name: 'From line' }).fill('2');
      await page.getByRole('button', { name: 'Suggest a change' }).click();
      const suggested = page.getByRole('textbox', { name: 'Suggested lines' });
      expect(await suggested.inputValue()).toBe('const b = 2;\nconst c = 3;');
      await suggested.fill('const bc = 5;');
      await expectAccessible(page, 'a line comment with a suggestion being written');
      await suggested
        .locator('xpath=ancestor::form')
        .getByRole('button', { name: 'Comment', exact: true })
        .click();

      const thread = page.getByRole('article', { name: 'Thread on lines 2-3 of src/app.ts' });
      await thread.getByText('Suggested change').waitFor();
      await expectAccessible(page, 'a thread with a suggestion');
      await thread.getByRole('button', { name: 'Apply suggestion' }).click();
      await page.getByRole('cell', { name: 'const bc = 5;' }).waitFor();
      await page.getByText('Resolved', { exact: true }).first().waitFor();

      await other.git(['fetch', '--quiet', 'origin']);
      expect(await other.git(['log', '-1', '--format=%an', 'origin/phase-1-strategic'])).toBe(
        env.developer.name,
      );
      expect(await other.git(['show', 'origin/phase-1-strategic:src/app.ts'])).toBe(
        'const a = 1;\nconst bc = 5;',
      );

      // "Viewed" folds the file away and counts it, until a commit changes the file again.
      const section = fileSection('src/app.ts');
      await page.getByText('0 of 1 files viewed').waitFor();
      await section.getByRole('checkbox', { name: 'Viewed' }).check();
      await page.getByText('1 of 1 files viewed').waitFor();
      const toggle = section.getByRole('button', { name: 'src/app.ts', exact: true });
      await eventually(async () => (await toggle.getAttribute('aria-expanded')) === 'false', {
        what: 'the viewed file folded away',
      });
      await expectAccessible(page, 'a review with a file marked viewed');
      // Another reviewer's commit changes the file: the mark no longer holds.
      const id = answer.review?.id ?? '';
      const { review } = await env.api('GET', `/v1/reviews/${id}`, { token: env.reviewer.token });
      const edited = await env.http.call('PUT', `/v1/reviews/${id}/file`, {
        token: env.reviewer.token,
        body: { path: 'src/app.ts', text: 'const a = 1;\nconst bc = 6;\n', expectedHead: review.headCommit },
      });
      expect(edited.status).toBe(200);
      await page.getByText('0 of 1 files viewed').waitFor({ timeout: 15_000 });
      expect(await section.getByRole('checkbox', { name: 'Viewed' }).isChecked()).toBe(false);
    } finally {
      other.close();
    }
  });
});

describe('syntax highlighting and the split view', () => {
  it('highlights code by its file extension, keeps markup in the code as text, and remembers the split view per person', async () => {
    const env = e2e();
    const other = await ReviewAgent.start(env, 'Highlighting');
    try {
      await other.branch('phase-1-strategic', 'origin/main');
      const code = "const answer = 42; // the answer\nconst html = '<img src=x onerror=alert(1)>';\n";
      await other.commit({ 'src/x.ts': code, 'notes.txt': 'const plain = 1;\n' }, 'Code');
      await other.push('phase-1-strategic');
      const answer = await other.checkpoint({ phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
      await page.goto(`/reviews/${answer.review?.id}`);
      const ts = fileSection('src/x.ts');
      await ts.locator('.hljs-keyword').filter({ hasText: 'const' }).first().waitFor();
      await ts.locator('.hljs-comment').filter({ hasText: '// the answer' }).waitFor();
      await ts.getByRole('cell', { name: "const html = '<img src=x onerror=alert(1)>';" }).waitFor();
      expect(await page.locator('.review-diff img').count()).toBe(0);
      await fileSection('notes.txt').getByRole('cell', { name: 'const plain = 1;' }).waitFor();
      expect(await fileSection('notes.txt').locator('[class^="hljs-"]').count()).toBe(0);
      await expectAccessible(page, 'a review with highlighted code');

      // Side by side, remembered for this person in this browser, not for another person.
      const split = page.getByRole('button', { name: 'Split view' });
      await split.click();
      await ts.locator('table.review-diff-split').waitFor();
      expect(await ts.getByRole('columnheader', { name: 'New text' }).count()).toBe(1);
      await ts.getByRole('cell', { name: 'added: const answer = 42; // the answer' }).waitFor();
      await expectAccessible(page, 'a review in the split view');
      await page.reload();
      await ts.locator('table.review-diff-split').waitFor();
      expect(await page.getByRole('button', { name: 'Split view' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await split.click();
      await ts.locator('table.review-diff:not(.review-diff-split)').waitFor();
      await split.click();
      const reviewer = await env.pageAs(env.reviewer);
      await reviewer.goto(`/reviews/${answer.review?.id}`);
      await reviewer.getByRole('heading', { name: 'Files changed (2)' }).waitFor();
      expect(await reviewer.getByRole('button', { name: 'Split view' }).getAttribute('aria-pressed')).toBe(
        'false',
      );
    } finally {
      other.close();
    }
  });
});
