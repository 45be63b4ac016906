import { expect, it } from 'vitest';
import type { ReviewCommentRecord, ReviewRecord } from '../review-types.js';
import { uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

const HEAD = 'a'.repeat(40);

function makeReview(overrides: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    id: uid('rev'),
    runId: uid('run'),
    agentId: 'agent_a',
    gateId: null,
    phase: 1,
    type: 'strategic',
    jobComplete: false,
    branch: 'phase-1-strategic',
    previousBranches: [],
    revision: 1,
    baseCommit: 'b'.repeat(40),
    headCommit: HEAD,
    status: 'open',
    mergeCommit: null,
    autoMerged: false,
    conflicts: [],
    retrospective: null,
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

function makeComment(reviewId: string, overrides: Partial<ReviewCommentRecord> = {}): ReviewCommentRecord {
  return {
    id: uid('cmt'),
    reviewId,
    parentId: null,
    path: 'plan.md',
    line: 3,
    side: 'new',
    commit: HEAD,
    lineText: '- step three',
    author: 'user:user_a',
    authorName: 'Ada',
    body: 'Why this step?',
    resolved: false,
    pending: false,
    startLine: null,
    suggestion: null,
    createdAt: 2_000,
    ...overrides,
  };
}

/** Reviews, their comments and verdicts. */
export function describeReviewContract(ctx: ContractContext): void {
  it('round-trips a review, finds it by its phase boundary and lists a run’s reviews oldest first', async () => {
    const { store } = ctx.harness();
    const first = makeReview({ conflicts: ['a.md'], retrospective: 'Phase one: planned' });
    const second = makeReview({ runId: first.runId, phase: 2, type: 'tactical', createdAt: 3_000 });
    await store.transaction(async (tx) => {
      await tx.insertReview(second);
      await tx.insertReview(first);
    });
    expect(await store.read((tx) => tx.getReview(first.id))).toEqual({ ...first, version: 1 });
    expect(await store.read((tx) => tx.getReview('rev_missing'))).toBeNull();
    const boundary = { runId: first.runId, phase: 2, type: 'tactical', jobComplete: false };
    expect(await store.read((tx) => tx.findReview(boundary))).toEqual({ ...second, version: 1 });
    expect(await store.read((tx) => tx.findReview({ ...boundary, jobComplete: true }))).toBeNull();
    expect(await store.read((tx) => tx.listReviews(first.runId))).toEqual([first, second]);
  });

  it('keeps one review per phase boundary: a second one is refused with CONFLICT', async () => {
    const { store } = ctx.harness();
    const review = makeReview();
    await store.transaction((tx) => tx.insertReview(review));
    await expect(
      store.transaction((tx) => tx.insertReview(makeReview({ runId: review.runId }))),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('updates a review only at the version it was read at', async () => {
    const { store } = ctx.harness();
    const review = makeReview();
    await store.transaction((tx) => tx.insertReview(review));
    const merged = { ...review, status: 'merged' as const, mergeCommit: 'c'.repeat(40) };
    expect(await store.transaction((tx) => tx.updateReview(merged, 1))).toBe(true);
    expect(await store.transaction((tx) => tx.updateReview({ ...review, status: 'closed' }, 1))).toBe(false);
    expect(await store.read((tx) => tx.getReview(review.id))).toEqual({ ...merged, version: 2 });
  });

  it('keeps comments in order, with replies and resolution', async () => {
    const { store } = ctx.harness();
    const root = makeComment('rev_one');
    const reply = makeComment('rev_one', {
      parentId: root.id,
      path: null,
      line: null,
      side: null,
      lineText: null,
      author: 'agent:agent_a',
      authorName: 'coder',
      createdAt: 3_000,
    });
    const elsewhere = makeComment('rev_two');
    await store.transaction(async (tx) => {
      await tx.insertReviewComment(reply);
      await tx.insertReviewComment(root);
      await tx.insertReviewComment(elsewhere);
    });
    expect(await store.read((tx) => tx.listReviewComments('rev_one'))).toEqual([root, reply]);
    expect(await store.read((tx) => tx.getReviewComment(reply.id))).toEqual(reply);
    expect(await store.transaction((tx) => tx.setReviewCommentResolved(root.id, true))).toBe(true);
    expect(await store.transaction((tx) => tx.setReviewCommentResolved('cmt_missing', true))).toBe(false);
    expect((await store.read((tx) => tx.getReviewComment(root.id)))?.resolved).toBe(true);
  });

  it('keeps each person’s latest verdict per file and for the whole review', async () => {
    const { store } = ctx.harness();
    const base = { reviewId: 'rev_v', author: 'user:user_a', authorName: 'Ada', commit: HEAD };
    await store.transaction(async (tx) => {
      await tx.putReviewVerdict({ ...base, path: null, verdict: 'request_changes', createdAt: 1_000 });
      await tx.putReviewVerdict({ ...base, path: 'plan.md', verdict: 'approve', createdAt: 1_500 });
      await tx.putReviewVerdict({ ...base, path: null, verdict: 'approve', createdAt: 2_000 });
      await tx.putReviewVerdict({
        ...base,
        author: 'user:user_b',
        path: null,
        verdict: 'approve',
        createdAt: 2_500,
      });
    });
    const verdicts = await store.read((tx) => tx.listReviewVerdicts('rev_v'));
    expect(verdicts).toEqual([
      { ...base, path: 'plan.md', verdict: 'approve', createdAt: 1_500 },
      { ...base, path: null, verdict: 'approve', createdAt: 2_000 },
      { ...base, author: 'user:user_b', path: null, verdict: 'approve', createdAt: 2_500 },
    ]);
  });

  it('publishes one author’s pending comments only, and keeps a review’s summaries oldest first', async () => {
    const { store } = ctx.harness();
    const mine = makeComment('rev_p', { pending: true });
    const theirs = makeComment('rev_p', { pending: true, author: 'user:user_b', createdAt: 2_100 });
    const summary = {
      reviewId: 'rev_p',
      revision: 1,
      body: 'Looks good',
      author: 'user:user_a',
      authorName: 'Ada',
      commit: HEAD,
    };
    await store.transaction(async (tx) => {
      await tx.insertReviewComment(mine);
      await tx.insertReviewComment(theirs);
      await tx.insertReviewSummary({ ...summary, id: 'rsm_2', kind: 'approve', createdAt: 3_000 });
      await tx.insertReviewSummary({ ...summary, id: 'rsm_1', kind: 'request_changes', createdAt: 2_500 });
    });
    expect(await store.transaction((tx) => tx.publishReviewComments('rev_p', 'user:user_a'))).toBe(1);
    expect(await store.transaction((tx) => tx.publishReviewComments('rev_p', 'user:user_a'))).toBe(0);
    const comments = await store.read((tx) => tx.listReviewComments('rev_p'));
    expect(comments.map((comment) => [comment.author, comment.pending])).toEqual([
      ['user:user_a', false],
      ['user:user_b', true],
    ]);
    const summaries = await store.read((tx) => tx.listReviewSummaries('rev_p'));
    expect(summaries.map((entry) => [entry.id, entry.kind])).toEqual([
      ['rsm_1', 'request_changes'],
      ['rsm_2', 'approve'],
    ]);
    expect(summaries[1]).toEqual({ ...summary, id: 'rsm_2', kind: 'approve', createdAt: 3_000 });
  });

  it('keeps each person’s viewed files with their blob, replaced by a later mark and cleared by null', async () => {
    const { store } = ctx.harness();
    const view = { reviewId: 'rev_view', author: 'user:user_a', path: 'a.md', at: 1_000 };
    await store.transaction(async (tx) => {
      await tx.setReviewFileView({ ...view, blobId: 'b1' });
      await tx.setReviewFileView({ ...view, blobId: 'b2', at: 2_000 });
      await tx.setReviewFileView({ ...view, path: 'b.md', blobId: 'b3' });
      await tx.setReviewFileView({ ...view, author: 'user:user_b', blobId: 'b4' });
    });
    expect(await store.read((tx) => tx.listReviewFileViews('rev_view', 'user:user_a'))).toEqual([
      { path: 'a.md', blobId: 'b2' },
      { path: 'b.md', blobId: 'b3' },
    ]);
    await store.transaction((tx) => tx.setReviewFileView({ ...view, blobId: null }));
    expect(await store.read((tx) => tx.listReviewFileViews('rev_view', 'user:user_a'))).toEqual([
      { path: 'b.md', blobId: 'b3' },
    ]);
  });
}
