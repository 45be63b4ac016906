import { GatehouseError } from 'gatehouse-hitl-core';
import type { FileContent, FileDiff, ReviewDocument, ReviewFile } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { changedFiles, commitFile, fileDiff, mergeBase, readFile } from '../../workspace/git-ops.js';
import { personIdentity } from '../../workspace/repos.js';
import { commit } from '../commit.js';
import {
  actorId,
  actorOf,
  effectiveStatus,
  liveBase,
  liveHead,
  loadReview,
  recordReviewEvent,
  repoOf,
  type StoredReview,
  viewOf,
} from './review-records.js';
import { viewedPaths } from './review-views.js';

interface Sides {
  repo: string;
  review: StoredReview;
  base: string;
  head: string;
  /** The old side is `base` itself (an earlier revision's head), not its merge base with head. */
  exact: boolean;
}

/** The head revision `since` ended on; 400 naming `since` when it is not an earlier revision with a known head. */
function revisionHead(review: StoredReview, since: number): string {
  const found = (review.revisions ?? []).find((revision) => revision.revision === since);
  if (found === undefined || since >= review.revision) {
    const known = (review.revisions ?? []).map((revision) => revision.revision);
    const message = `must be an earlier revision of review ${review.id} (${known.length === 0 ? 'it has none' : known.join(', ')})`;
    throw new GatehouseError('VALIDATION_FAILED', `since ${message}`, {
      field: 'since',
      fields: [{ field: 'since', message }],
    });
  }
  return found.head;
}

async function sidesOf(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  since?: number | undefined,
): Promise<Sides> {
  const review = await ctx.store.read(async (tx) => {
    const stored = await loadReview(tx, principal, reviewId);
    const gate = stored.gateId === null ? null : await tx.getGate(stored.gateId);
    return { ...stored, status: effectiveStatus(stored, gate) };
  });
  const earlier = since === undefined ? null : revisionHead(review, since);
  const repo = await repoOf(ctx, review.runId);
  const [base, head] = await Promise.all([earlier ?? liveBase(repo, review), liveHead(repo, review)]);
  return { repo, review, base, head, exact: earlier !== null };
}

/**
 * The review's changed files: merge-base(main, head) to head while open, the stored commits after;
 * with `since`, revision N's head to the current head (changes since that revision).
 */
export async function reviewFiles(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  since?: number | undefined,
): Promise<{ base: string; head: string; files: ReviewFile[]; viewed: string[] }> {
  const { repo, review, base, head, exact } = await sidesOf(ctx, principal, reviewId, since);
  const [files, viewed] = await Promise.all([
    changedFiles(repo, base, head, { exact }),
    viewedPaths(ctx, principal, review, head),
  ]);
  return { base, head, files, viewed };
}

export async function reviewDiff(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  path: string,
  since?: number | undefined,
): Promise<{ base: string; head: string; diff: FileDiff }> {
  const { repo, base, head, exact } = await sidesOf(ctx, principal, reviewId, since);
  return { base, head, diff: await fileDiff(repo, base, head, path, { exact }) };
}

/** A file at the review's head, or at the merge base (`side: base`); binary files have no text. */
export async function reviewFile(
  ctx: AppContext,
  principal: Principal,
  input: { reviewId: string; path: string; side: 'head' | 'base' },
): Promise<FileContent> {
  const { repo, base, head } = await sidesOf(ctx, principal, input.reviewId);
  const at = input.side === 'head' ? head : await mergeBase(repo, base, head);
  const file = await readFile(repo, at, input.path);
  if (file === null) {
    throw new GatehouseError('NOT_FOUND', `path ${input.path} is not in the review's ${input.side}`, {
      field: 'path',
      path: input.path,
    });
  }
  return file;
}

/** A person's edit in the browser: one commit on the review's branch in their name, only on `expectedHead`. */
export async function editFile(
  ctx: AppContext,
  principal: Principal,
  input: { reviewId: string; path: string; text: string; message?: string | undefined; expectedHead: string },
): Promise<{ commit: string; review: ReviewDocument }> {
  if (principal.kind === 'agent') {
    throw new GatehouseError(
      'FORBIDDEN',
      'agents push to their branch; editing in the browser is for people',
    );
  }
  const { review, actor } = await ctx.store.read(async (tx) => {
    const stored = await loadReview(tx, principal, input.reviewId);
    const gate = stored.gateId === null ? null : await tx.getGate(stored.gateId);
    const found = { ...stored, status: effectiveStatus(stored, gate) };
    return { review: found, actor: await actorOf(tx, principal, found, 'developer') };
  });
  if (review.status !== 'open' && review.status !== 'changes_requested') {
    throw new GatehouseError(
      'INVALID_TRANSITION',
      `review ${review.id} is ${review.status}; its files can no longer be edited`,
      {
        reviewId: review.id,
        status: review.status,
      },
    );
  }
  const repo = await repoOf(ctx, review.runId);
  const created = await commitFile(repo, {
    branch: review.branch,
    path: input.path,
    text: input.text,
    message: input.message ?? `Edit ${input.path}`,
    identity: personIdentity(actor.name, ctx.clock.now()),
    expectedHead: input.expectedHead,
  });
  const stored = await commit(ctx, async (tools) => {
    const current = await loadReview(tools.tx, principal, review.id);
    await recordReviewEvent(tools, current, {
      kind: 'review.file_edited',
      actor: actorId(actor),
      data: { path: input.path, commit: created, previousHead: input.expectedHead },
    });
    return current;
  });
  const gate = stored.gateId === null ? null : await ctx.store.read((tx) => tx.getGate(stored.gateId ?? ''));
  return { commit: created, review: await viewOf(ctx, stored, gate) };
}
