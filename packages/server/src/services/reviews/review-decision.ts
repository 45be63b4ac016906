import { authorizeDecision, type Gate, GatehouseError, isTerminal, type Role } from 'gatehouse-hitl-core';
import type { ReviewCommentRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { type CommitTools, commit } from '../commit.js';
import { deleteReviewBranches, mergeConflict, mergeReview } from './review-merge.js';
import { type StoredReview, saveReview } from './review-records.js';
import { recordChangesRequested } from './review-submissions.js';

/** The squash commit an approval recorded, made before its transaction. */
export interface ApprovedMerge {
  reviewId: string;
  commit: string;
  head: string;
}

function reviewIdOf(gate: Gate): string | null {
  const id = gate.context.reviewId;
  return gate.type === 'phase_review' && typeof id === 'string' ? id : null;
}

/** Whether this decision would end the gate approved: the option approves and no other vote is missing. */
function endsApproved(gate: Gate, option: string): boolean {
  const chosen = gate.options.find((candidate) => candidate.id === option);
  return chosen?.outcome === 'approved' && gate.approvals.length + 1 >= gate.requiredApprovals;
}

/** Whether deciding `option` approves a phase review, whose branch must be merged before the decision's transaction. */
export function mergesFirst(gate: Gate, option: string): boolean {
  return reviewIdOf(gate) !== null && !isTerminal(gate.status) && endsApproved(gate, option);
}

async function recordConflicts(ctx: AppContext, review: StoredReview, conflicts: string[], actor: string) {
  await commit(ctx, async (tools) => {
    const stored = await tools.tx.getReview(review.id);
    if (stored === null) return;
    await saveReview(
      tools,
      stored,
      { ...stored, conflicts },
      {
        kind: 'review.merge_conflict',
        actor,
        data: { conflicts },
      },
    );
  });
}

/** The policy's rules for merging reviews (its `reviews` section). */
export interface MergeRules {
  requireResolvedThreads?: boolean | undefined;
}

/** 409 naming the review's open threads, when the policy wants every thread resolved before a merge. */
function refuseOpenThreads(review: StoredReview, comments: readonly ReviewCommentRecord[]): void {
  const open = comments.filter(
    (comment) => comment.parentId === null && !comment.resolved && !comment.pending,
  );
  if (open.length === 0) return;
  const named = open.map((comment) => {
    const where =
      comment.path === null
        ? 'the review'
        : comment.line === null
          ? comment.path
          : `${comment.path}:${comment.line}`;
    return `${comment.id} (${where}, ${comment.authorName})`;
  });
  throw new GatehouseError(
    'CONFLICT',
    `${open.length} open thread${open.length === 1 ? '' : 's'} must be resolved before merging (the policy requires resolved threads): ${named.join(', ')}`,
    {
      reviewId: review.id,
      reason: 'open_threads',
      openThreads: open.map((comment) => ({
        id: comment.id,
        path: comment.path,
        line: comment.line,
        authorName: comment.authorName,
      })),
    },
  );
}

/**
 * "Approve & merge" on a phase review: squash-merges its branch before the decision's transaction
 * (git is no part of it). A conflict records the files on the review and refuses the decision with
 * MERGE_CONFLICT, the gate left pending; so do open threads when the policy requires them resolved.
 * Null for every other decision.
 */
export async function mergeBeforeApproval(
  ctx: AppContext,
  user: { id: string; role: Role },
  gateId: string,
  option: string,
  rules: MergeRules = {},
): Promise<ApprovedMerge | null> {
  const { gate, review, runName, comments } = await ctx.store.read(async (tx) => {
    const found = await tx.getGate(gateId);
    const reviewId = found === null ? null : reviewIdOf(found);
    const stored = reviewId === null ? null : await tx.getReview(reviewId);
    const run = stored === null ? null : await tx.getRun(stored.runId);
    const title = (run as { title?: string | null } | null)?.title;
    const listed = stored === null ? [] : await tx.listReviewComments(stored.id);
    return { gate: found, review: stored, runName: title ?? stored?.runId ?? '', comments: listed };
  });
  if (gate === null || review === null || isTerminal(gate.status) || !endsApproved(gate, option)) return null;
  authorizeDecision(gate, { kind: 'user', id: user.id, role: user.role });
  if (review.status === 'merged' && review.mergeCommit !== null) {
    return { reviewId: review.id, commit: review.mergeCommit, head: review.headCommit };
  }
  if (rules.requireResolvedThreads === true) refuseOpenThreads(review, comments);
  const outcome = await mergeReview(ctx, review, runName);
  if (!outcome.ok) {
    await recordConflicts(ctx, review, outcome.conflicts, `user:${user.id}`);
    throw mergeConflict(review, outcome.conflicts);
  }
  return { reviewId: review.id, commit: outcome.commit, head: outcome.head };
}

/** Inside the decision's commit: the review follows its ended gate (merged, changes requested, closed). */
export async function recordReviewDecision(
  tools: CommitTools,
  gate: Gate,
  merge: ApprovedMerge | null,
): Promise<void> {
  const reviewId = reviewIdOf(gate);
  const stored = reviewId === null ? null : await tools.tx.getReview(reviewId);
  if (stored === null || stored.status === 'merged' || !isTerminal(gate.status)) return;
  const actor = gate.decision?.decidedBy ?? 'system';
  const by = actor.includes(':') ? actor : `user:${actor}`;
  if (gate.status === 'approved') {
    if (merge === null || merge.reviewId !== stored.id) {
      throw new GatehouseError(
        'CONFLICT',
        `review ${stored.id} is merged only by approving its gate on its own`,
        {
          reviewId: stored.id,
        },
      );
    }
    const next = {
      ...stored,
      status: 'merged' as const,
      mergeCommit: merge.commit,
      headCommit: merge.head,
      conflicts: [],
    };
    await saveReview(tools, stored, next, {
      kind: 'review.merged',
      actor: by,
      data: { mergeCommit: merge.commit },
    });
    return;
  }
  const changes = gate.status === 'resolved' && gate.decision?.option === 'request_changes';
  const status = changes ? ('changes_requested' as const) : ('closed' as const);
  if (changes) await recordChangesRequested(tools, stored, gate, by);
  await saveReview(
    tools,
    stored,
    { ...stored, status },
    {
      kind: changes ? 'review.changes_requested' : 'review.closed',
      actor: by,
      data: { gateStatus: gate.status, feedback: gate.decision?.feedback ?? null },
    },
  );
}

/** After the decision's commit: a merged review's branches go. */
export async function afterReviewDecision(ctx: AppContext, merge: ApprovedMerge | null): Promise<void> {
  if (merge === null) return;
  const review = await ctx.store.read((tx) => tx.getReview(merge.reviewId));
  if (review?.status === 'merged') await deleteReviewBranches(ctx, review);
}
