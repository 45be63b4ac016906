import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Json, type LiveServer, startLiveServer } from 'gatehouse-hitl-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPhaseReviewAgent } from './agent.js';

let server: LiveServer;
let root: string;

beforeEach(async () => {
  server = await startLiveServer();
  root = mkdtempSync(join(tmpdir(), 'gatehouse-phase-review-'));
});

afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** Calls the API as the developer, failing the test on any refusal. */
async function asPerson(method: string, path: string, body?: unknown): Promise<Json> {
  const response = await server.call(server.test.tokens.developer, method, path, body);
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function nextGate(seen: Set<string>): Promise<Json> {
  for (let i = 0; i < 600; i++) {
    const gate = await server.pendingGate();
    if (!seen.has(gate.id)) {
      seen.add(gate.id);
      return gate;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no new pending gate');
}

async function openReview(runId: string): Promise<Json> {
  const { items } = await asPerson('GET', `/v1/runs/${runId}/reviews`);
  const open = items.filter((review: Json) => review.status === 'open');
  expect(open).toHaveLength(1);
  return open[0];
}

/** A person who comments on two lines of plan.md, asks for changes, then approves everything. */
async function reviewAsPerson(): Promise<{ commentIds: string[]; revised: Json; revisedPlan: string }> {
  const seen = new Set<string>();
  // Gate 0: the plan is approved before the agent checkpoints its first phase.
  const intent = await nextGate(seen);
  expect(intent.type).toBe('intent_approval');
  expect(intent.artifacts).toEqual(['plan.md', 'workspace.md']);
  await server.decide(intent.id, { option: 'approve' });
  const first = await nextGate(seen);
  expect(first.type).toBe('phase_review');
  const review = await openReview(first.runId);
  expect(review).toMatchObject({ phase: 1, type: 'strategic', branch: 'phase-1-strategic', revision: 1 });
  const commentIds: string[] = [];
  for (const [line, body] of [
    [6, 'Say which findings count as shared'],
    [9, 'Convert everything to SI units first'],
  ] as const) {
    const { comment } = await asPerson('POST', `/v1/reviews/${review.id}/comments`, {
      path: 'plan.md',
      line,
      body,
    });
    commentIds.push(comment.id);
  }
  await server.decide(first.id, { option: 'request_changes', feedback: 'See my two comments on plan.md' });

  const second = await nextGate(seen);
  const revised = await openReview(second.runId);
  const { file } = await asPerson('GET', `/v1/reviews/${revised.id}/file?path=plan.md`);
  await server.decide(second.id, { option: 'approve' });
  // The final review the run asks for once its job is done.
  const final = await nextGate(seen);
  await server.decide(final.id, { option: 'approve' });
  return { commentIds, revised, revisedPlan: file.text };
}

const git = (cwd: string, ...args: string[]) =>
  spawnSync('git', args, { cwd, encoding: 'utf8' }).stdout.trim();

describe('the phase-review example agent', () => {
  it('pushes phase 1, answers the two line comments on -rev-2, and squash-merges each phase into main', {
    timeout: 90_000,
  }, async () => {
    const lines: string[] = [];
    const workDir = join(root, 'repo');
    const person = reviewAsPerson();
    const result = await runPhaseReviewAgent({
      url: server.url,
      token: server.test.tokens.agent,
      workDir,
      log: (line) => lines.push(line),
    });
    const { commentIds, revised, revisedPlan } = await person;

    expect(result.stopped).toBeNull();
    expect(result.run.status).toBe('completed');
    expect(result.phases.map(({ branches, outcome }) => ({ branches, outcome }))).toEqual([
      { branches: ['phase-1-strategic', 'phase-1-strategic-rev-2'], outcome: 'approved' },
      { branches: ['phase-2-tactical'], outcome: 'merged' },
    ]);

    // The agent answered each comment on rev-2: the line it points at, and a reply in its thread.
    expect(revised).toMatchObject({ branch: 'phase-1-strategic-rev-2', revision: 2 });
    const plan = revisedPlan.split('\n');
    expect(plan[5]).toBe('2. List the findings they share. (revised: Say which findings count as shared)');
    expect(plan[8]).toBe(
      'Risk: the reports use different units. (revised: Convert everything to SI units first)',
    );
    const { items: comments } = await asPerson('GET', `/v1/reviews/${revised.id}/comments`);
    for (const id of commentIds) {
      const replies = comments.filter((c: Json) => c.parentId === id);
      expect(replies).toHaveLength(1);
      expect(replies[0].author).toMatch(/^agent:/);
      expect(replies[0].body).toMatch(/^Done on phase-1-strategic-rev-2: plan\.md line \d now reads/);
    }
    expect(result.answers.map((a) => a.commentId)).toEqual(commentIds);

    // main: the first empty commit, then one squash commit per phase, with its retrospective.
    expect(git(workDir, 'log', '--format=%s', 'main').split('\n')).toEqual([
      'Phase 2 (tactical): the result',
      'Phase 1 (strategic): the plan',
      expect.any(String),
    ]);
    expect(git(workDir, 'rev-list', '--min-parents=2', '--count', 'main')).toBe('0');
    expect(result.mainCommit).toBe(git(workDir, 'rev-parse', 'main'));
    expect(readFileSync(join(workDir, 'plan.md'), 'utf8')).toBe(revisedPlan);
    expect(readFileSync(join(workDir, 'output/result.md'), 'utf8')).toContain(
      '- [x] List the findings they share. (revised: Say which findings count as shared)',
    );
    const { branches } = await asPerson('GET', `/v1/runs/${result.runId}/workspace`);
    expect(branches.map((b: Json) => b.name)).toEqual(['main']);
    expect(lines.join('\n')).toContain(
      'changes requested: 2 comment(s) to answer on phase-1-strategic-rev-2',
    );
  });

  it('still makes and merges each phase branch under full autonomy, with no one asked', {
    timeout: 60_000,
  }, async () => {
    const workDir = join(root, 'repo');
    // Looser than the agent's own default: a tech lead starts the run and hands it to the agent.
    const agentId = server.test.ids.agentId;
    const started = await server.call(server.test.tokens.techLead, 'POST', '/v1/runs', {
      agentId,
      autonomy: 'full',
    });
    expect(started.status).toBe(201);
    const result = await runPhaseReviewAgent({
      url: server.url,
      token: server.test.tokens.agent,
      runId: started.body.run.id,
      workDir,
      log: () => {},
    });
    expect(result.stopped).toBeNull();
    expect(result.run.status).toBe('completed');
    expect(result.phases.map(({ branches, outcome }) => ({ branches, outcome }))).toEqual([
      { branches: ['phase-1-strategic'], outcome: 'merged' },
      { branches: ['phase-2-tactical'], outcome: 'merged' },
    ]);
    expect(result.answers).toEqual([]);
    expect(git(workDir, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
    const { items } = await asPerson('GET', '/v1/gates');
    expect(items).toEqual([]);
  });
});
