import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';
import { ExampleAgentProcess, gitAs } from './review-example-process.js';

const e2e = withE2e();

/** The lines of the example's plan.md the person comments on, and what they ask. */
const ASKS = [
  { line: 6, text: '2. List the findings they share.', body: 'Say which findings count as shared' },
  { line: 9, text: 'Risk: the reports use different units.', body: 'Convert everything to SI units first' },
] as const;
const EDITED_STEP = '3. Write the summary to output/result.md, one page at most.';

let agent: ExampleAgentProcess;
let page: Page;
let runId = '';
let reviewId = '';
let scratch = '';
const gates: string[] = [];

const fileSection = (name: string) => page.getByRole('region', { name, exact: true });
/** A line the branch adds, as the diff table names its cell. */
const added = (text: string) => page.getByRole('cell', { name: `added: ${text}`, exact: true });
const thread = (line: number) => page.getByRole('article', { name: `Thread on line ${line} of plan.md` });

/** Fails with what the agent printed, so a stuck flow says where the agent was. */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(
      `${what}: ${(error as Error).message}\n--- the example agent printed:\n${agent.output()}`,
      {
        cause: error,
      },
    );
  }
}

/** The run's next pending gate not seen before. */
async function nextGate(): Promise<{ id: string; type: string }> {
  const env = e2e();
  return eventually(
    async () => {
      const { items } = await env.api('GET', `/v1/gates?status=pending&runId=${runId}`, {
        token: env.developer.token,
      });
      const gate = items.find((candidate: { id: string }) => !gates.includes(candidate.id));
      if (gate !== undefined) gates.push(gate.id);
      return gate;
    },
    { timeoutMs: 20_000, what: 'a new pending gate of the run' },
  );
}

async function audit(subject: string): Promise<{ kind: string; actor: string }[]> {
  const env = e2e();
  const answer = await env.api('GET', `/v1/audit?subject=${subject}&limit=500`, { token: env.admin.token });
  return answer.items;
}

const git = (...args: string[]) => gitAs(e2e().developer.token, args, join(scratch, 'repo'));

beforeAll(async () => {
  const env = e2e();
  const created = await env.http.call('POST', '/v1/runs', {
    token: env.agent.token,
    body: { title: 'Summarize the sample reports', autonomy: 'partial' },
  });
  if (created.status !== 201) throw new Error(`the run did not start: ${JSON.stringify(created.body)}`);
  runId = created.body.run.id;
  agent = ExampleAgentProcess.start({ url: env.url, token: env.agent.token, runId });
  page = await env.pageAs(env.developer);
  scratch = mkdtempSync(join(tmpdir(), 'gh-example-check-'));
});

afterAll(async () => {
  await agent?.close();
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

describe('the phase-review example agent, reviewed in the browser', () => {
  it('pushes phase 1 and waits at a phase review gate that links to the review', async () => {
    // Gate 0: the agent sends its plan once its first checkpoint is held; the tech lead approves it.
    const env = e2e();
    const intent = await step('the plan', nextGate);
    expect(intent.type).toBe('intent_approval');
    const approved = await env.http.call('POST', `/v1/gates/${intent.id}/decide`, {
      token: env.techLead.token,
      body: { option: 'approve' },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const gate = await step('the phase 1 gate', nextGate);
    expect(gate.type).toBe('phase_review');
    expect(agent.output()).toContain('pushed phase-1-strategic');

    await page.goto(`/gates/${gate.id}`);
    await page.getByRole('link', { name: /Open the review/ }).click();
    await page.getByRole('heading', { name: 'Review of phase-1-strategic', level: 1 }).waitFor();
    reviewId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await page.getByRole('heading', { name: 'Files changed (2)' }).waitFor();
    await fileSection('workspace.md').waitFor();
    await added(ASKS[0].text).waitFor();
  });

  it('comments on two lines of plan.md and requests changes with feedback', async () => {
    for (const { line, body } of ASKS) {
      await page.getByRole('button', { name: `Comment on line ${line} of plan.md`, exact: true }).click();
      const box = page.getByRole('textbox', { name: `Comment on line ${line} of plan.md`, exact: true });
      await box.fill(body);
      await box.locator('xpath=ancestor::form').getByRole('button', { name: 'Comment', exact: true }).click();
      await thread(line).getByText(body).waitFor();
    }
    await page.getByRole('button', { name: 'Request changes…' }).click();
    await page
      .getByRole('textbox', { name: /Feedback for the agent/ })
      .fill('See my two comments on plan.md.');
    await page.getByRole('button', { name: 'Request changes', exact: true }).click();
    await page.getByText('Changes requested', { exact: true }).first().waitFor();
  });

  it('shows the agent’s answer on -rev-2 live: revision 2, the lines changed, a reply in each thread', async () => {
    await step('the answer on -rev-2', async () => {
      await page
        .getByRole('heading', { name: 'Review of phase-1-strategic-rev-2', level: 1 })
        .waitFor({ timeout: 20_000 });
      const revision = page.locator('.review-facts div').filter({ has: page.getByText('Revision') });
      expect(await revision.locator('dd').textContent()).toBe('2');
      for (const { line, text, body } of ASKS) {
        const edited = `${text} (revised: ${body})`;
        await added(edited).waitFor();
        const reply = thread(line)
          .getByRole('listitem')
          .filter({
            hasText: `Done on phase-1-strategic-rev-2: plan.md line ${line} now reads "${edited}".`,
          });
        await reply.getByText('agent', { exact: true }).waitFor();
        await thread(line).getByText('Outdated').waitFor();
      }
    });
    await expectAccessible(page, 'a review the example agent answered');
    expect(agent.output()).toContain('changes requested: 2 comment(s) to answer on phase-1-strategic-rev-2');
    // The rev-2 checkpoint's gate, for the audit below.
    await nextGate();
  });

  it('commits the person’s edit of plan.md from the browser, then approves and merges', async () => {
    await page.getByRole('button', { name: 'Edit plan.md' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit plan.md' });
    const text = await editor.inputValue();
    expect(text).toContain('(revised: Convert everything to SI units first)');
    await editor.fill(text.replace('3. Write the summary to output/result.md.', EDITED_STEP));
    await page.getByRole('button', { name: 'Commit to phase-1-strategic-rev-2' }).click();
    await added(EDITED_STEP).waitFor();

    await page.getByRole('button', { name: 'Approve & merge' }).click();
    // Both threads were answered but not resolved: the merge asks first, naming how many.
    await page.getByRole('button', { name: 'Merge with 2 open threads' }).click();
    await page.getByText(/Squash-merged into main as/).waitFor();
  });

  it('leaves one squash commit for phase 1 on main with everyone’s changes, its branches gone, every step audited', async () => {
    const env = e2e();
    const { review } = await env.api('GET', `/v1/reviews/${reviewId}`, { token: env.developer.token });
    expect(review).toMatchObject({ status: 'merged', branch: 'phase-1-strategic-rev-2', revision: 2 });
    const { gitUrl } = await env.api('GET', `/v1/runs/${runId}/workspace`, { token: env.developer.token });
    await gitAs(env.developer.token, ['clone', '--quiet', new URL(gitUrl, env.url).href, 'repo'], scratch);

    const squash: string = review.mergeCommit;
    const root = await git('rev-list', '--max-parents=0', 'main');
    expect(await git('rev-list', '--parents', '-n', '1', squash)).toBe(`${squash} ${root}`);
    const message = await git('show', '-s', '--format=%B', squash);
    expect(message.split('\n')[0]).toBe('Phase 1 (strategic): the plan');
    expect(message).toContain(`Gatehouse-Review: ${reviewId}`);
    expect(message).toContain('Co-authored-by: build-bot <build-bot@agent.gatehouse.invalid>');
    expect(message).toContain('Co-authored-by: dana-developer <dana-developer@gatehouse.invalid>');
    const plan = await git('show', `${squash}:plan.md`);
    for (const { text, body } of ASKS) expect(plan).toContain(`${text} (revised: ${body})`);
    expect(plan).toContain(EDITED_STEP);
    expect(await git('show', `${squash}:workspace.md`)).toContain('Notes the agent keeps between phases.');

    const heads = await git('ls-remote', '--heads', 'origin');
    expect(heads).not.toMatch(/refs\/heads\/phase-1-/);

    const events = (await Promise.all([reviewId, runId, ...gates].map(audit))).flat();
    const count = (kind: string, actor?: string) =>
      events.filter((event) => event.kind === kind && (actor === undefined || event.actor === actor)).length;
    const person = `user:${env.developer.id}`;
    const bot = `agent:${env.agent.id}`;
    expect(count('workspace.pushed', bot)).toBeGreaterThanOrEqual(2);
    expect(count('review.opened')).toBe(2);
    expect(count('review.comment', person)).toBe(2);
    expect(count('review.comment', bot)).toBe(2);
    expect(count('review.changes_requested', person)).toBe(1);
    expect(count('review.file_edited', person)).toBe(1);
    expect(count('review.merged', person)).toBe(1);
    expect(count('gate.decided', person)).toBe(2);
  });

  it('lets the agent finish: phase 2 merged at once, the final review approved, one squash commit per phase', async () => {
    const env = e2e();
    const final = await step('the final review gate', nextGate);
    const decided = await env.http.call('POST', `/v1/gates/${final.id}/decide`, {
      token: env.developer.token,
      body: { option: 'approve' },
    });
    expect(decided.status).toBe(200);
    await step('the agent exiting', async () => expect(await agent.exit(20_000)).toBe(0));
    expect(agent.output()).toContain(`run ${runId}: completed`);

    await git('fetch', '--quiet', '--prune', 'origin');
    const subjects = (await git('log', '--format=%s', 'origin/main')).split('\n');
    expect(subjects).toEqual([
      'Phase 2 (tactical): the result',
      'Phase 1 (strategic): the plan',
      expect.any(String),
    ]);
    expect(await git('rev-list', '--min-parents=2', '--count', 'origin/main')).toBe('0');
    // Phase 2 was built from main as merged, the person's edit included.
    expect(await git('show', 'origin/main:output/result.md')).toContain(
      '- [x] Write the summary to output/result.md, one page at most.',
    );
    expect(await git('ls-remote', '--heads', 'origin')).toMatch(/^\w+\trefs\/heads\/main$/);
  });
});
