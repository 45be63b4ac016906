import { type Gate, GatehouseError } from 'gatehouse-hitl-core';
import type { ReviewSummary } from 'gatehouse-hitl-protocol';
import type { ReviewRecord, ReviewsRepo } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { type CommitTools, commit } from '../commit.js';
import {
  actorId,
  actorOf,
  effectiveStatus,
  liveHead,
  loadReview,
  recordReviewEvent,
  repoOf,
} from './review-records.js';

type ReviewSummaryRecord = Parameters<ReviewsRepo['insertReviewSummary']>[0];
export type SubmissionVerdict = ReviewSummaryRecord['kind'];

function invalid(field: string, message: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `${field} ${message}`, {
    field,
    fields: [{ field, message }],
  });
}

/** The summary as the API shows it. */
export function summaryView(summary: ReviewSummaryRecord): ReviewSummary {
  const { reviewId: _reviewId, ...view } = summary;
  return view;
}

/**
 * Submits the person's pending review: publishes their pending comments and keeps the summary in the
 * review's timeline; approve and request changes also record their verdict on the whole review (the
 * gate's decision is still what merges or sends the agent back).
 */
export async function submitReview(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  input: { verdict: SubmissionVerdict; body: string },
): Promise<{ summary: ReviewSummary; published: number }> {
  if (principal.kind === 'agent') {
    throw new GatehouseError('FORBIDDEN', 'agents comment directly; submitting a review is for people');
  }
  const review = await ctx.store.read((tx) => loadReview(tx, principal, reviewId));
  const head = await liveHead(await repoOf(ctx, review.runId), review);
  const body = input.body.trim();
  if (input.verdict === 'request_changes' && body === '') {
    throw invalid('body', 'is required to request changes: tell the agent what to change');
  }
  return commit(ctx, async (tools) => {
    const stored = await loadReview(tools.tx, principal, reviewId);
    const actor = await actorOf(tools.tx, principal, stored, 'developer');
    const gate = stored.gateId === null ? null : await tools.tx.getGate(stored.gateId);
    const status = effectiveStatus(stored, gate);
    if (status !== 'open' && status !== 'changes_requested') {
      throw new GatehouseError(
        'INVALID_TRANSITION',
        `review ${stored.id} is ${status}; it takes no more reviews`,
        { reviewId: stored.id, status },
      );
    }
    const author = actorId(actor);
    const published = await tools.tx.publishReviewComments(stored.id, author);
    if (input.verdict === 'comment' && body === '' && published === 0) {
      throw invalid('body', 'is required for a comment without pending comments');
    }
    const summary: ReviewSummaryRecord = {
      id: ctx.ids.next('rsm'),
      reviewId: stored.id,
      revision: stored.revision,
      kind: input.verdict,
      body,
      author,
      authorName: actor.name,
      commit: head,
      createdAt: tools.tx.now,
    };
    await tools.tx.insertReviewSummary(summary);
    if (input.verdict !== 'comment') {
      await tools.tx.putReviewVerdict({
        reviewId: stored.id,
        path: null,
        author,
        authorName: actor.name,
        verdict: input.verdict,
        commit: head,
        createdAt: tools.tx.now,
      });
    }
    await recordReviewEvent(tools, stored, {
      kind: 'review.submitted',
      actor: author,
      data: { summaryId: summary.id, verdict: input.verdict, published },
    });
    return { summary: summaryView(summary), published };
  });
}

/** Inside the decision's commit: a request for changes keeps its feedback in the review's timeline. */
export async function recordChangesRequested(
  tools: CommitTools,
  review: ReviewRecord,
  gate: Gate,
  by: string,
): Promise<void> {
  const userId = by.startsWith('user:') ? by.slice('user:'.length) : null;
  const person = userId === null ? null : await tools.tx.getUser(userId);
  await tools.tx.insertReviewSummary({
    id: `rsm_${gate.id}`,
    reviewId: review.id,
    revision: review.revision,
    kind: 'request_changes',
    body: gate.decision?.feedback ?? '',
    author: by,
    authorName: person?.name ?? userId ?? by,
    commit: review.headCommit,
    createdAt: tools.tx.now,
  });
}
