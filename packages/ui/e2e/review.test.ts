import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';
import { ReviewAgent } from './review-agent.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

const PLAN = [
  '# Plan',
  '',
  'The service answers health checks.',
  '',
  '## Steps',
  '',
  '1. Add the endpoint',
  '2. Test it',
  '',
];
const HEALTH = ['export function health() {', '  return { ok: true };', '}', ''];
const lines = (text: string[]) => text.join('\n');

let agent: ReviewAgent;
let page: Page;
let reviewId = '';
let firstGate = '';

const fileSection = (name: string) => page.getByRole('region', { name, exact: true });

async function openFile(name: string): Promise<void> {
  const toggle = fileSection(name).getByRole('button', { name, exact: true });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

async function commentOnLine(path: string, line: number, body: string): Promise<void> {
  await openFile(path);
  await page.getByRole('button', { name: `Comment on line ${line} of ${path}`, exact: true }).click();
  const box = page.getByRole('textbox', { name: `Comment on line ${line} of ${path}`, exact: true });
  await box.fill(body);
  await box.locator('xpath=ancestor::form').getByRole('button', { name: 'Comment', exact: true }).click();
  await page
    .getByRole('article', { name: `Thread on line ${line} of ${path}` })
    .getByText(body)
    .waitFor();
}

async function auditKinds(subject: string): Promise<string[]> {
  const answer = await e2e().api('GET', `/v1/audit?subject=${subject}&limit=500`, {
    token: e2e().admin.token,
  });
  return (answer.items as { kind: string }[]).map((event) => event.kind);
}

beforeAll(async () => {
  const env = e2e();
  agent = await ReviewAgent.start(env, 'Health endpoint');
  page = await env.pageAs(env.developer);
});

afterAll(() => agent?.close());

describe('a phase review on real git', () => {
  it('opens a review when the agent pushes phase 1 and checkpoints with its branch', async () => {
    await agent.branch('phase-1-strategic', 'origin/main');
    await agent.commit(
      { 'docs/plan.md': lines(PLAN), 'src/health.ts': lines(HEALTH) },
      'Plan and health check',
    );
    await agent.push('phase-1-strategic');
    const answer = await agent.checkpoint({ phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
    expect(answer.freeze).toBe(true);
    expect(answer.review).not.toBeNull();
    reviewId = answer.review?.id ?? '';
    firstGate = answer.gate?.id ?? '';

    await page.goto(`/gates/${firstGate}`);
    await page.getByRole('link', { name: /Open the review/ }).click();
    await page.getByRole('heading', { name: 'Review of phase-1-strategic', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/reviews/${reviewId}`);
    await page.getByRole('heading', { name: 'Files changed (2)' }).waitFor();
    await fileSection('docs/plan.md').getByText('+8', { exact: true }).waitFor();
    await page.getByRole('cell', { name: 'The service answers health checks.' }).waitFor();
  });

  it('renders the markdown file beside its diff, with no raw HTML', async () => {
    await fileSection('docs/plan.md').getByRole('button', { name: 'Rendered view' }).click();
    const rendered = page.getByRole('region', { name: 'docs/plan.md rendered' });
    await rendered.getByRole('heading', { name: 'Steps', level: 2 }).waitFor();
    expect(await rendered.getByRole('listitem').count()).toBe(2);
    await expectAccessible(page, 'the review screen');
    await screenshot(page, 'review');
  });

  it('comments on two lines, and requests changes with feedback', async () => {
    await commentOnLine('docs/plan.md', 3, 'Say which port the health check listens on.');
    await commentOnLine('src/health.ts', 2, 'Report the version too.');
    const verdict = fileSection('src/health.ts').getByRole('button', {
      name: 'Request changes on src/health.ts',
    });
    await verdict.click();
    await eventually(async () => (await verdict.getAttribute('aria-pressed')) === 'true', {
      what: 'the file verdict shown as given',
    });

    await page.getByRole('button', { name: 'Request changes…' }).click();
    await page.getByRole('button', { name: 'Request changes', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Feedback is required' }).waitFor();
    await page
      .getByRole('textbox', { name: /Feedback for the agent/ })
      .fill('Two small things, see the comments.');
    await page.getByRole('button', { name: 'Request changes', exact: true }).click();
    await page.getByText('Changes requested', { exact: true }).first().waitFor();
  });

  it('gives the resumed agent the comments, and shows its answer on -rev-2 live', async () => {
    const feedback = await eventually(async () => (await agent.feedback()) ?? undefined, {
      what: 'resume.review',
    });
    expect(feedback.nextBranch).toBe('phase-1-strategic-rev-2');
    const onLines = feedback.comments
      .filter((comment) => comment.line !== null)
      .map((comment) => `${comment.path}:${comment.line} ${comment.authorName}: ${comment.body}`)
      .sort();
    expect(onLines).toEqual([
      'docs/plan.md:3 dana-developer: Say which port the health check listens on.',
      'src/health.ts:2 dana-developer: Report the version too.',
    ]);

    await agent.branch(feedback.nextBranch, feedback.headCommit);
    const plan = [...PLAN];
    plan[2] = 'The service answers health checks on port 8080.';
    const health = [...HEALTH];
    health[1] = "  return { ok: true, version: '1.0.0' };";
    await agent.commit({ 'docs/plan.md': lines(plan), 'src/health.ts': lines(health) }, 'Port and version');
    await agent.push(feedback.nextBranch);
    const answer = await agent.checkpoint({
      phase: 1,
      type: 'strategic',
      branch: feedback.nextBranch,
      retrospective: 'Phase 1: a health check that reports its version',
    });
    expect(answer.review?.id).toBe(reviewId);

    // No reload: the page follows the run's events.
    await page
      .getByRole('heading', { name: 'Review of phase-1-strategic-rev-2', level: 1 })
      .waitFor({ timeout: 15_000 });
    await page.getByRole('cell', { name: 'The service answers health checks on port 8080.' }).waitFor();
    await fileSection('docs/plan.md').getByText('Outdated').first().waitFor();

    const thread = page.getByRole('article', { name: 'Thread on line 2 of src/health.ts' });
    await thread.getByRole('button', { name: 'Reply' }).click();
    await page
      .getByRole('textbox', { name: 'Reply to the thread on line 2 of src/health.ts' })
      .fill('Thanks, the version is there now.');
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    await thread.getByText('Thanks, the version is there now.').waitFor();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await thread.getByRole('button', { name: 'Reopen' }).waitFor();
  });

  it('refuses an edit made on a head the agent has pushed past, then commits the edit as the person', async () => {
    await openFile('docs/plan.md');
    await page.getByRole('button', { name: 'Edit docs/plan.md' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit docs/plan.md' });
    await expect(editor.inputValue()).resolves.toContain('port 8080');

    await agent.commit({ 'src/version.ts': "export const VERSION = '1.0.0';\n" }, 'Version constant');
    await agent.push('phase-1-strategic-rev-2');
    const edited = (await editor.inputValue()).replace('2. Test it', '2. Test it against a real server');
    await editor.fill(edited);
    await page.getByRole('button', { name: 'Commit to phase-1-strategic-rev-2' }).click();
    await page.getByRole('alert').filter({ hasText: 'The agent pushed' }).waitFor();

    await page.getByRole('heading', { name: 'Files changed (3)' }).waitFor();
    await editor.fill(edited);
    await page.getByRole('button', { name: 'Commit to phase-1-strategic-rev-2' }).click();
    await page.getByRole('cell', { name: '2. Test it against a real server' }).waitFor();
  });

  it('approves and merges: one squashed commit on main with everyone’s changes, the branches gone', async () => {
    await page.getByRole('button', { name: 'Approve & merge' }).click();
    await page.getByText(/Squash-merged into main as/).waitFor();

    await agent.git(['fetch', '--quiet', '--prune', 'origin']);
    const log = (await agent.git(['log', '--format=%H %s', 'origin/main'])).split('\n');
    expect(log).toHaveLength(2);
    const [squash = ''] = log;
    expect(squash).toContain('Phase 1: a health check that reports its version');
    const plan = await agent.git(['show', 'origin/main:docs/plan.md']);
    expect(plan).toContain('port 8080');
    expect(plan).toContain('2. Test it against a real server');
    expect(await agent.git(['show', 'origin/main:src/health.ts'])).toContain("version: '1.0.0'");
    expect(await agent.git(['show', 'origin/main:src/version.ts'])).toContain('VERSION');
    expect([...(await agent.remoteBranches()).keys()]).toEqual(['main']);

    const kinds = [
      ...(await auditKinds(reviewId)),
      ...(await auditKinds(agent.runId)),
      ...(await auditKinds(firstGate)),
    ];
    for (const kind of ['review.opened', 'review.merged', 'workspace.pushed', 'gate.decided'])
      expect(kinds, `audit holds ${kind}`).toContain(kind);
    await screenshot(page, 'review-merged');
  });

  it('shows a viewer everything but no controls', async () => {
    const viewerPage = await e2e().pageAs(e2e().viewer);
    await viewerPage.goto(`/reviews/${reviewId}`);
    await viewerPage.getByRole('heading', { name: /Review of/, level: 1 }).waitFor();
    await viewerPage.getByText('Say which port the health check listens on.').first().waitFor();
    expect(
      await viewerPage.getByRole('button', { name: /Approve|Request changes|Edit|Comment on line/ }).count(),
    ).toBe(0);
    await expectAccessible(viewerPage, 'the review screen for a viewer');
  });
});
