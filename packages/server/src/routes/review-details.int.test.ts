import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeReview } from '../services/reviews/review-merge.js';
import { decideTestGate } from '../testing/gates.js';
import { callAs, type TestMethod } from '../testing/phase-review.js';
import { bareGit, cloneRepo } from '../testing/review-git.js';
import { approveTestPlan, createRunViaApi } from '../testing/runs.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { ensureRepo, reposDirOf } from '../workspace/repos.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };

describe.each(dialects)('review threads, verdicts, binary files and merge retries on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const call = (method: TestMethod, url: string, token: string, payload?: Record<string, unknown>) =>
    callAs(test, method, url, token, payload);

  /** A dependent run frozen on its first phase with `files` pushed on phase-1-strategic. */
  async function frozenReview(files: Record<string, string | Uint8Array>) {
    const run = await createRunViaApi(test, { autonomy: 'dependent', title: 'Details' });
    await approveTestPlan(test, run.id);
    const repo = await ensureRepo(reposDirOf(test.config), run.id);
    const clone = cloneRepo(repo, { author: AGENT, branch: 'phase-1-strategic' });
    clone.commit(files, 'agent work');
    clone.push('phase-1-strategic');
    clone.remove();
    const response = await call('POST', `/v1/runs/${run.id}/checkpoint`, test.tokens.agent, {
      phase: 1,
      type: 'strategic',
      branch: 'phase-1-strategic',
    });
    const { gate, review } = response.json();
    return { run, repo, gate, review };
  }

  it('resolves and reopens a thread, refuses to resolve a reply, and keeps each person’s latest verdict', async () => {
    const { review } = await frozenReview({ 'plan.md': 'a\nb\n' });
    const url = `/v1/reviews/${review.id}`;
    const root = (
      await call('POST', `${url}/comments`, test.tokens.developer, {
        body: 'why b?',
        path: 'plan.md',
        line: 2,
      })
    ).json().comment;
    expect(root).toMatchObject({ lineText: 'b', side: 'new', outdated: false, resolved: false });
    const reply = (
      await call('POST', `${url}/comments`, test.tokens.agent, { body: 'because', parentId: root.id })
    ).json().comment;
    const byAgent = await call('POST', `${url}/comments/${root.id}/resolve`, test.tokens.agent, {});
    expect(byAgent.statusCode).toBe(403);
    const resolved = await call('POST', `${url}/comments/${root.id}/resolve`, test.tokens.developer, {});
    expect(resolved.json().comment.resolved).toBe(true);
    const reopened = await call('POST', `${url}/comments/${root.id}/resolve`, test.tokens.agent, {
      resolved: false,
    });
    expect(reopened.json().comment.resolved).toBe(false);
    const onReply = await call('POST', `${url}/comments/${reply.id}/resolve`, test.tokens.developer, {});
    expect(onReply.statusCode).toBe(400);

    await call('POST', `${url}/verdicts`, test.tokens.developer, { verdict: 'request_changes' });
    await call('POST', `${url}/verdicts`, test.tokens.developer, { path: 'plan.md', verdict: 'approve' });
    const latest = await call('POST', `${url}/verdicts`, test.tokens.developer, { verdict: 'approve' });
    expect(
      latest.json().verdicts.map((v: { path: string | null; verdict: string }) => [v.path, v.verdict]),
    ).toEqual([
      ['plan.md', 'approve'],
      [null, 'approve'],
    ]);
    expect(
      (await call('POST', `${url}/verdicts`, test.tokens.agent, { verdict: 'approve' })).statusCode,
    ).toBe(403);
    const kinds = (await test.services.audit.query({ subject: review.id })).items.map((event) => event.kind);
    expect(kinds.filter((kind) => kind === 'review.comment_resolved')).toHaveLength(2);
    expect(kinds.filter((kind) => kind === 'review.verdict')).toHaveLength(3);
    const events = await test.store.listStreamEvents({ afterSeq: 0, runId: review.runId });
    expect(events.filter((event) => event.type === 'review.updated').at(-1)?.data).toMatchObject({
      reviewId: review.id,
    });
  });

  it('shows binary and non-UTF-8 files as binary and refuses a line comment on them', async () => {
    const { review } = await frozenReview({
      'logo.bin': Buffer.from([0, 1, 2, 3, 255]),
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    });
    for (const path of ['logo.bin', 'latin1.txt']) {
      const file = (
        await call('GET', `/v1/reviews/${review.id}/file?path=${path}`, test.tokens.viewer)
      ).json().file;
      expect(file).toMatchObject({ binary: true, text: null });
      const diff = (
        await call('GET', `/v1/reviews/${review.id}/diff?path=${path}`, test.tokens.viewer)
      ).json().diff;
      expect(diff).toMatchObject({ binary: true, hunks: [] });
    }
    const line = await call('POST', `/v1/reviews/${review.id}/comments`, test.tokens.developer, {
      body: 'hm',
      path: 'logo.bin',
      line: 1,
    });
    expect(line.json().error.details.field).toBe('line');
    const missing = await call('GET', `/v1/reviews/${review.id}/file?path=nope.md`, test.tokens.viewer);
    expect(missing.statusCode).toBe(404);
  });

  it('an approval retried after its merge reached main records that merge rather than merging twice', async () => {
    const { repo, gate, review } = await frozenReview({ 'plan.md': 'one\n' });
    const stored = await test.store.read((tx) => tx.getReview(review.id));
    if (stored === null) throw new Error('no review');
    // The crash: main got the squash commit but the decision was never recorded.
    const first = await mergeReview(test.ctx, stored, 'Details');
    expect(first.ok).toBe(true);
    const decided = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
    expect(decided.statusCode).toBe(200);
    expect(bareGit(repo, 'rev-list', '--count', `${review.baseCommit}..main`)).toBe('1');
    const merged = (await call('GET', `/v1/reviews/${review.id}`, test.tokens.viewer)).json().review;
    expect(merged).toMatchObject({ status: 'merged', mergeCommit: first.ok ? first.commit : '' });
  });

  it('a review whose gate was cancelled with its run reads as closed', async () => {
    const { run, review } = await frozenReview({ 'plan.md': 'x\n' });
    const stop = await call('POST', `/v1/runs/${run.id}/interventions`, test.tokens.developer, {
      kind: 'stop',
    });
    expect(stop.statusCode).toBe(200);
    const closed = (await call('GET', `/v1/reviews/${review.id}`, test.tokens.viewer)).json().review;
    expect(closed.status).toBe('closed');
    expect((await call('GET', `/v1/reviews/${review.id}/files`, test.tokens.viewer)).statusCode).toBe(200);
  });
});
