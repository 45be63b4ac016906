import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { bareGit, cloneRepo } from '../testing/review-git.js';
import { approveTestPlan, createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { ensureRepo, repoPathOf, reposDirOf } from '../workspace/repos.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };

describe.each(dialects)('reviews of phase branches on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  function call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    token: string,
    payload?: Record<string, unknown>,
  ): Promise<LightMyRequestResponse> {
    const headers = bearer(token);
    return payload === undefined
      ? test.app.inject({ method, url, headers })
      : test.app.inject({ method, url, headers, payload });
  }

  /** A run whose agent pushed `files` on `branch` (from main), and its repository path. */
  async function pushedRun(autonomy: string, branch: string, files: Record<string, string>) {
    // Looser levels than the agent's ceiling are started by a tech lead.
    const body = { autonomy, title: 'Docs', agentId: test.ids.agentId };
    const run = await createRunViaApi(
      test,
      body,
      autonomy === 'full' ? test.tokens.techLead : test.tokens.agent,
    );
    if (autonomy !== 'full') await approveTestPlan(test, run.id);
    const repo = await ensureRepo(reposDirOf(test.config), run.id);
    const clone = cloneRepo(repo, { author: AGENT, branch });
    clone.commit(files, 'agent work');
    clone.push(branch);
    return { run, repo, clone };
  }

  function checkpoint(runId: string, body: Record<string, unknown>, token = test.tokens.agent) {
    return call('POST', `/v1/runs/${runId}/checkpoint`, token, body);
  }

  async function auditKinds(subject: string): Promise<string[]> {
    return (await test.services.audit.query({ subject })).items.map((event) => event.kind);
  }

  it('on full autonomy merges the branch at once as one squash commit and deletes it', async () => {
    const { run, repo, clone } = await pushedRun('full', 'phase-1-strategic', { 'plan.md': '# Plan\n' });
    const response = await checkpoint(run.id, { phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
    expect(response.statusCode).toBe(200);
    const { freeze, gate, review } = response.json();
    expect({ freeze, gate }).toEqual({ freeze: false, gate: null });
    expect(review).toMatchObject({ status: 'merged', autoMerged: true, gateId: null, revision: 1 });
    expect(bareGit(repo, 'branch', '--list', 'phase-1-strategic')).toBe('');
    expect(bareGit(repo, 'show', 'main:plan.md')).toBe('# Plan');
    expect(bareGit(repo, 'rev-parse', 'main')).toBe(review.mergeCommit);
    expect(bareGit(repo, 'log', '-1', '--format=%B', 'main')).toContain(`Gatehouse-Review: ${review.id}`);
    expect(await auditKinds(review.id)).toEqual(['review.opened', 'review.auto_merged']);
    clone.remove();
  });

  it('on partial autonomy the first strategic phase waits for approval with the review linked from its gate', async () => {
    const { run, clone } = await pushedRun('partial', 'phase-1-strategic', { 'plan.md': 'a\nb\n' });
    const response = await checkpoint(run.id, { phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
    const { freeze, gate, review } = response.json();
    expect(freeze).toBe(true);
    expect(review).toMatchObject({ status: 'open', autoMerged: false, gateId: gate.id });
    expect(gate.context).toMatchObject({ reviewId: review.id, branch: 'phase-1-strategic' });
    const retried = await checkpoint(run.id, { phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
    expect(retried.json()).toMatchObject({ freeze: true, gate: { id: gate.id }, review: { id: review.id } });
    const listed = await call('GET', `/v1/runs/${run.id}/reviews`, test.tokens.viewer);
    expect(listed.json().items.map((item: { id: string }) => item.id)).toEqual([review.id]);
    clone.remove();
  });

  it('approve & merge: one squash commit on main with the agent’s and a person’s edits, crediting both; branch gone', async () => {
    const { run, repo, clone } = await pushedRun('partial', 'phase-1-strategic', {
      'plan.md': 'one\ntwo\n',
      'notes.md': 'draft\n',
    });
    clone.commit({ 'plan.md': 'one\ntwo\nthree\n' }, 'more plan');
    clone.push('phase-1-strategic');
    const body = {
      phase: 1,
      type: 'strategic',
      branch: 'phase-1-strategic',
      retrospective: 'Planned the docs',
    };
    const { gate, review } = (await checkpoint(run.id, body)).json();
    const files = (await call('GET', `/v1/reviews/${review.id}/files`, test.tokens.viewer)).json();
    expect(files.files.map((file: { path: string; added: number }) => [file.path, file.added])).toEqual([
      ['notes.md', 1],
      ['plan.md', 3],
    ]);
    const diff = (await call('GET', `/v1/reviews/${review.id}/diff?path=plan.md`, test.tokens.viewer)).json();
    expect(diff.diff.hunks[0].lines.map((line: { newLine: number }) => line.newLine)).toEqual([1, 2, 3]);
    const edit = await call('PUT', `/v1/reviews/${review.id}/file`, test.tokens.developer, {
      path: 'notes.md',
      text: 'final notes\n',
      expectedHead: files.head,
    });
    expect(edit.statusCode).toBe(200);
    expect(bareGit(repo, 'log', '-1', '--format=%an', edit.json().commit)).toBe('dev');
    const decided = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
    expect(decided.statusCode).toBe(200);
    const merged = (await call('GET', `/v1/reviews/${review.id}`, test.tokens.viewer)).json().review;
    expect(merged).toMatchObject({ status: 'merged', autoMerged: false, headCommit: edit.json().commit });
    expect(bareGit(repo, 'rev-list', '--count', `${review.baseCommit}..main`)).toBe('1');
    expect(bareGit(repo, 'show', 'main:notes.md')).toBe('final notes');
    expect(bareGit(repo, 'show', 'main:plan.md')).toBe('one\ntwo\nthree');
    const message = bareGit(repo, 'log', '-1', '--format=%B', 'main');
    expect(message.split('\n')[0]).toBe('Planned the docs');
    expect(message).toContain('Co-authored-by: alpha <alpha@agents.invalid>');
    expect(message).toContain('Co-authored-by: dev <dev@gatehouse.invalid>');
    expect(message).toContain(`Gatehouse-Review: ${review.id}`);
    expect(bareGit(repo, 'branch', '--list', 'phase-1-*')).toBe('');
    expect(await auditKinds(review.id)).toEqual(['review.opened', 'review.file_edited', 'review.merged']);
    const edited = await call('PUT', `/v1/reviews/${review.id}/file`, test.tokens.developer, {
      path: 'notes.md',
      text: 'late\n',
      expectedHead: merged.headCommit,
    });
    expect(edited.statusCode).toBe(409);
    clone.remove();
  });

  it('a conflicting merge is refused naming the file, the gate stays pending; request changes then reopens on -rev-2', async () => {
    const { run, repo, clone } = await pushedRun('partial', 'phase-1-strategic', { 'plan.md': 'agent\n' });
    const { gate, review } = (
      await checkpoint(run.id, { phase: 1, type: 'strategic', branch: 'phase-1-strategic' })
    ).json();
    const other = cloneRepo(repo, { author: { name: 'ops', email: 'ops@x.invalid' }, branch: 'main' });
    other.commit({ 'plan.md': 'someone else\n' }, 'main moved');
    other.push('main');
    const refused = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'MERGE_CONFLICT',
      details: { conflicts: ['plan.md'] },
    });
    expect(refused.json().error.message).toContain('plan.md');
    expect((await test.store.read((tx) => tx.getGate(gate.id)))?.status).toBe('pending');
    const conflicted = (await call('GET', `/v1/reviews/${review.id}`, test.tokens.viewer)).json().review;
    expect(conflicted).toMatchObject({ status: 'open', conflicts: ['plan.md'] });

    const line = await call('POST', `/v1/reviews/${review.id}/comments`, test.tokens.developer, {
      body: 'Rebase on main',
      path: 'plan.md',
      line: 1,
    });
    expect(line.statusCode).toBe(201);
    const changes = await decideTestGate(test, test.tokens.developer, gate.id, {
      option: 'request_changes',
      feedback: 'update from main',
    });
    expect(changes.statusCode).toBe(200);
    const resume = (await call('GET', `/v1/runs/${run.id}`, test.tokens.agent)).json().resume;
    expect(resume.review).toMatchObject({
      reviewId: review.id,
      branch: 'phase-1-strategic',
      nextBranch: 'phase-1-strategic-rev-2',
      comments: [{ path: 'plan.md', line: 1, body: 'Rebase on main', authorName: 'dev', outdated: false }],
    });
    const wrong = await checkpoint(run.id, { phase: 1, type: 'strategic', branch: 'phase-1-strategic' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details).toMatchObject({
      field: 'branch',
      expected: 'phase-1-strategic-rev-2',
    });

    const answer = cloneRepo(repo, { author: AGENT, branch: 'phase-1-strategic-rev-2', from: 'main' });
    answer.commit({ 'plan.md': 'someone else\nagent\n' }, 'answer');
    answer.push('phase-1-strategic-rev-2');
    const again = await checkpoint(run.id, {
      phase: 1,
      type: 'strategic',
      branch: 'phase-1-strategic-rev-2',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().review).toMatchObject({ id: review.id, revision: 2, status: 'open', conflicts: [] });
    expect(again.json().gate.id).not.toBe(gate.id);
    const comments = (await call('GET', `/v1/reviews/${review.id}/comments`, test.tokens.viewer)).json()
      .items;
    expect(comments[0]).toMatchObject({ lineText: 'agent', outdated: true });
    const approved = await decideTestGate(test, test.tokens.developer, again.json().gate.id, {
      option: 'approve',
    });
    expect(approved.statusCode).toBe(200);
    expect(bareGit(repo, 'branch', '--list', 'phase-1-*')).toBe('');
    expect(await auditKinds(review.id)).toEqual([
      'review.opened',
      'review.merge_conflict',
      'review.comment',
      'review.changes_requested',
      'review.opened',
      'review.merged',
    ]);
    clone.remove();
    other.remove();
    answer.remove();
  });

  it('refuses a stale edit, a viewer’s comment, a missing line, another review’s thread and another agent', async () => {
    const { run, clone } = await pushedRun('dependent', 'phase-1-strategic', { 'a.md': 'x\ny\n' });
    const { review } = (
      await checkpoint(run.id, { phase: 1, type: 'strategic', branch: 'phase-1-strategic' })
    ).json();
    const stale = review.headCommit;
    clone.commit({ 'a.md': 'x\nz\n' }, 'agent again');
    clone.push('phase-1-strategic');
    const edit = await call('PUT', `/v1/reviews/${review.id}/file`, test.tokens.developer, {
      path: 'a.md',
      text: 'mine\n',
      expectedHead: stale,
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.code).toBe('CONFLICT');
    const viewer = await call('POST', `/v1/reviews/${review.id}/comments`, test.tokens.viewer, {
      body: 'hi',
    });
    expect(viewer.statusCode).toBe(403);
    const missing = await call('POST', `/v1/reviews/${review.id}/comments`, test.tokens.developer, {
      body: 'here?',
      path: 'a.md',
      line: 9,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.field).toBe('line');
    const leaving = await call('GET', `/v1/reviews/${review.id}/diff?path=../x`, test.tokens.viewer);
    expect(leaving.statusCode).toBe(400);
    const others = await pushedRun('dependent', 'phase-1-strategic', { 'b.md': 'b\n' });
    const second = (
      await checkpoint(others.run.id, { phase: 1, type: 'strategic', branch: 'phase-1-strategic' })
    ).json();
    const root = (
      await call('POST', `/v1/reviews/${second.review.id}/comments`, test.tokens.developer, { body: 'r' })
    ).json();
    const reply = await call('POST', `/v1/reviews/${review.id}/comments`, test.tokens.developer, {
      body: 'reply',
      parentId: root.comment.id,
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().error.details.field).toBe('parentId');
    const agentReply = await call('POST', `/v1/reviews/${second.review.id}/comments`, test.tokens.agent, {
      body: 'done',
      parentId: root.comment.id,
    });
    expect(agentReply.json().comment).toMatchObject({
      author: `agent:${test.ids.agentId}`,
      parentId: root.comment.id,
    });
    expect((await call('GET', `/v1/reviews/${review.id}`, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await call('GET', '/v1/reviews/rev_missing', test.tokens.viewer)).statusCode).toBe(404);
    const unpushed = await createRunViaApi(test, { autonomy: 'dependent' });
    await approveTestPlan(test, unpushed.id);
    const notPushed = await checkpoint(unpushed.id, {
      phase: 1,
      type: 'strategic',
      branch: 'phase-1-strategic',
    });
    expect(notPushed.statusCode).toBe(400);
    expect(notPushed.json().error.details.field).toBe('branch');
    expect(repoPathOf(reposDirOf(test.config), unpushed.id)).toContain(unpushed.id);
    clone.remove();
    others.clone.remove();
  });
});
