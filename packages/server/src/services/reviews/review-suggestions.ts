import { GatehouseError } from 'gatehouse-hitl-core';
import type { ReviewComment } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { commitFile, readFile } from '../../workspace/git-ops.js';
import { personIdentity } from '../../workspace/repos.js';
import { commit } from '../commit.js';
import { commentViews, rangeText } from './review-comments.js';
import {
  actorId,
  actorOf,
  effectiveStatus,
  liveHead,
  loadReview,
  recordReviewEvent,
  repoOf,
} from './review-records.js';

function linesChanged(path: string, first: number, last: number): GatehouseError {
  const where = first === last ? `line ${last}` : `lines ${first}-${last}`;
  return new GatehouseError(
    'CONFLICT',
    `${path} ${where} changed since the suggestion was written; it can no longer be applied as it is`,
    { field: 'commentId', path, startLine: first, line: last },
  );
}

/**
 * Applies a suggestion: replaces the commented lines of the branch's head with the suggested text,
 * as one commit in the person's name on the phase branch, only while those lines still read as
 * they did (else 409); the thread is resolved and the change audited.
 */
export async function applySuggestion(
  ctx: AppContext,
  principal: Principal,
  input: { reviewId: string; commentId: string },
): Promise<{ commit: string; comment: ReviewComment }> {
  if (principal.kind === 'agent') {
    throw new GatehouseError('FORBIDDEN', 'agents push to their branch; applying a suggestion is for people');
  }
  const { review, actor, comment } = await ctx.store.read(async (tx) => {
    const stored = await loadReview(tx, principal, input.reviewId);
    const gate = stored.gateId === null ? null : await tx.getGate(stored.gateId);
    const found = { ...stored, status: effectiveStatus(stored, gate) };
    return {
      review: found,
      actor: await actorOf(tx, principal, found, 'developer'),
      comment: await tx.getReviewComment(input.commentId),
    };
  });
  if (comment === null || comment.reviewId !== review.id || comment.pending) {
    throw new GatehouseError('NOT_FOUND', `no comment ${input.commentId} on review ${review.id}`, {
      commentId: input.commentId,
    });
  }
  const suggestion = comment.suggestion ?? null;
  if (suggestion === null || comment.path === null || comment.line === null || comment.side !== 'new') {
    throw new GatehouseError('VALIDATION_FAILED', `commentId ${comment.id} carries no suggestion`, {
      field: 'commentId',
    });
  }
  if (review.status !== 'open' && review.status !== 'changes_requested') {
    throw new GatehouseError(
      'INVALID_TRANSITION',
      `review ${review.id} is ${review.status}; its branch takes no more changes`,
      { reviewId: review.id, status: review.status },
    );
  }
  const repo = await repoOf(ctx, review.runId);
  const head = await liveHead(repo, review);
  const first = comment.startLine ?? comment.line;
  const file = await readFile(repo, head, comment.path);
  const lines = file?.text?.split('\n') ?? null;
  if (lines === null || rangeText(lines, first, comment.line) !== comment.lineText) {
    throw linesChanged(comment.path, first, comment.line);
  }
  const replacement = suggestion === '' ? [] : suggestion.replace(/\r\n/g, '\n').split('\n');
  const text = [...lines.slice(0, first - 1), ...replacement, ...lines.slice(comment.line)].join('\n');
  const range = first === comment.line ? `${comment.line}` : `${first}-${comment.line}`;
  const created = await commitFile(repo, {
    branch: review.branch,
    path: comment.path,
    text,
    message: `Apply suggestion on ${comment.path}:${range}\n\nSuggested by ${comment.authorName} in review ${review.id}.`,
    identity: personIdentity(actor.name, ctx.clock.now()),
    expectedHead: head,
  });
  const root = comment.parentId ?? comment.id;
  await commit(ctx, async (tools) => {
    const current = await loadReview(tools.tx, principal, review.id);
    await tools.tx.setReviewCommentResolved(root, true);
    await recordReviewEvent(tools, current, {
      kind: 'review.suggestion_applied',
      actor: actorId(actor),
      data: {
        commentId: comment.id,
        path: comment.path,
        startLine: first,
        line: comment.line,
        commit: created,
      },
    });
  });
  const [view] = await commentViews(ctx, review, [
    { ...comment, resolved: comment.parentId === null ? true : comment.resolved },
  ]);
  return { commit: created, comment: view as ReviewComment };
}
