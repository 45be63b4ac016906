import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Gatehouse, type Workspace } from 'gatehouse-hitl-sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCliServer } from '../testing/cli-server.js';

const PLAN_1 = '# Plan\nStep one: read the data\nStep two: clean it\nStep three: report\n';
const PLAN_2 = '# Plan\nStep one: read data/input.csv\nStep two: drop empty rows\nStep three: report\n';

// biome-ignore lint/suspicious/noExplicitAny: test-only view of JSON answers
type Json = any;

describe('gatehouse review against a running server', () => {
  const cli = useCliServer();
  let agent: Gatehouse;
  let ws: Workspace;
  let runId: string;
  let personToken: string;

  async function json(args: string[]): Promise<Json> {
    const result = await cli.gatehouse([...args, '--json']);
    if (result.code !== 0) throw new Error(`gatehouse ${args.join(' ')} → ${result.code}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  }

  async function api(token: string, path: string): Promise<Json> {
    const response = await fetch(`${cli.server.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    return response.json();
  }

  /** The agent (a script, no LLM) writes the phase, pushes its branch and checkpoints it. */
  async function agentPushes(revision: number, plan: string): Promise<Json> {
    const { branch } = await ws.startPhaseBranch({ phase: 1, type: 'strategic', revision });
    writeFileSync(join(ws.dir, 'plan.md'), plan);
    await ws.commitAll(`plan: revision ${revision}`);
    await ws.push();
    const boundary = await agent.checkpoint({
      runId,
      phase: 1,
      type: 'strategic',
      branch,
      retrospective: 'Phase 1: the plan',
      wait: false,
    });
    expect(boundary.freeze).toBe(true);
    return boundary.review;
  }

  beforeAll(async () => {
    agent = new Gatehouse({ url: cli.server.url, token: cli.agentToken });
    const run = await agent.createRun({ title: 'cli review', autonomy: 'guided' });
    runId = run.id;
    // Gate 0: a person approves the plan before the run checkpoints anything.
    let opened: (gateId: string) => void = () => {};
    const intent = new Promise<string>((resolve) => {
      opened = resolve;
    });
    const plan = agent.request({
      runId,
      event: 'planning_complete',
      operation: 'Clean the data as plan.md says',
      onGate: (gateId) => opened(gateId),
    });
    expect((await cli.gatehouse(['gates', 'decide', await intent, '--option', 'approve'])).code).toBe(0);
    expect((await plan).outcome).toBe('approved');
    ws = await agent.workspace(runId).clone(join(cli.temp.dir, 'agent'));
    const stored = readFileSync(join(cli.temp.dir, 'config', 'gatehouse', 'credentials.json'), 'utf8');
    personToken = (JSON.parse(stored) as { token: string }).token;
  }, 60_000);

  it('comments on two lines, requests changes, pushes an edit, approves the revision; main holds one squash commit', async () => {
    const review = await agentPushes(1, PLAN_1);
    const open = await json(['review', 'list']);
    expect(open.items.map((item: Json) => item.id)).toContain(review.id);
    const listed = await cli.gatehouse(['review', 'list', '--run', runId]);
    expect(listed.stdout).toMatch(new RegExp(`${review.id}\\s+${runId}\\s+1 strategic\\s+open`));

    const diff = await cli.gatehouse(['review', 'diff', review.id, 'plan.md']);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('diff plan.md (added)');
    expect(diff.stdout).toContain('          3 │+Step two: clean it');
    expect(diff.stdout).not.toContain('\u001b[');
    const all = await json(['review', 'diff', review.id]);
    expect(all.items.map((item: Json) => item.diff.path)).toEqual(['plan.md']);

    for (const [line, body] of [
      ['2', 'Which data?'],
      ['3', 'Clean how?'],
    ] as const) {
      const added = await cli.gatehouse([
        'review',
        'comment',
        review.id,
        '--path',
        'plan.md',
        '--line',
        line,
        '--body',
        body,
      ]);
      expect(added.code).toBe(0);
      expect(added.stdout).toContain(`on plan.md:${line}: ${body}`);
    }
    const general = await json(['review', 'comment', review.id, '--body', 'Good start']);
    const reply = await json([
      'review',
      'comment',
      review.id,
      '--reply',
      general.comment.id,
      '--body',
      'Thanks',
    ]);
    expect(reply.comment.parentId).toBe(general.comment.id);
    const resolved = await cli.gatehouse(['review', 'resolve', review.id, general.comment.id]);
    expect(resolved.stdout).toBe(`thread ${general.comment.id} resolved\n`);

    const shown = await cli.gatehouse(['review', 'show', review.id]);
    expect(shown.stdout).toMatch(/added\s+\+4\s+-0\s+plan\.md/);
    expect(shown.stdout).toContain('4 comment(s)');
    expect(shown.stdout).toContain('↳ ');

    const noFeedback = await cli.gatehouse(['review', 'request-changes', review.id]);
    expect(noFeedback.code).toBe(2);
    const asked = await cli.gatehouse([
      'review',
      'request-changes',
      review.id,
      '--feedback',
      'Answer the comments',
    ]);
    expect(asked.stderr).toBe('');
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('review');

    const feedback = await ws.reviewFeedback();
    expect(feedback?.comments.filter((c) => c.line !== null).map((c) => c.line)).toEqual([2, 3]);
    const revised = await agentPushes(2, PLAN_2);
    expect(revised).toMatchObject({ id: review.id, branch: 'phase-1-strategic-rev-2', status: 'open' });

    // The person's own edit: a commit pushed with git to the branch under review.
    const person = new Gatehouse({ url: cli.server.url, token: personToken });
    const mine = await person
      .workspace(runId, { author: { name: 'Ada Reviewer', email: 'ada@example.com' } })
      .clone(join(cli.temp.dir, 'person'));
    await mine.startPhaseBranch({
      phase: 1,
      type: 'strategic',
      revision: 2,
      from: 'origin/phase-1-strategic-rev-2',
    });
    writeFileSync(join(mine.dir, 'plan.md'), PLAN_2.replace('report', 'report to the team'));
    const edit = await mine.commitAll('plan: who gets the report');
    await mine.push();
    const pushed = await json(['review', 'show', review.id]);
    expect(pushed.review.headCommit).toBe(edit);

    const approved = await cli.gatehouse(['review', 'approve', review.id]);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(/review rev_\w+: merged; merged into main as [0-9a-f]{12}/);
    const again = await cli.gatehouse(['review', 'approve', review.id]);
    expect(again.code).toBe(1);

    const workspace = await api(personToken, `/v1/runs/${runId}/workspace`);
    expect(workspace.branches.map((branch: Json) => branch.name)).toEqual(['main']);
    const log = await api(personToken, `/v1/runs/${runId}/workspace/log?ref=main`);
    expect(log.commits).toHaveLength(2);
    const file = await api(personToken, `/v1/runs/${runId}/workspace/file?ref=main&path=plan.md`);
    expect(file.file.text).toBe(PLAN_2.replace('report', 'report to the team'));
  }, 120_000);

  it('answers an unknown review with exit code 1 and the server’s error', async () => {
    const result = await cli.gatehouse(['review', 'show', 'rev_doesnotexist']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error NOT_FOUND');
  });
});
