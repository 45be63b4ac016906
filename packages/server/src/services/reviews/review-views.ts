import { GatehouseError } from 'gatehouse-hitl-core';
import type { ReviewRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { changedFiles } from '../../workspace/git-ops.js';
import { gitLiteral } from '../../workspace/git-refs.js';
import { commit } from '../commit.js';
import { effectiveStatus, liveBase, liveHead, loadReview, repoOf } from './review-records.js';

/** Blob ids of `paths` at `commit` (one `ls-tree`); a path that is not there is missing from the map. */
async function blobIds(repo: string, at: string, paths: readonly string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (paths.length === 0) return ids;
  const output = (await gitLiteral(repo, ['ls-tree', '-z', '--full-tree', at, '--', ...paths])).stdout;
  for (const record of output.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [, type = '', id = ''] = record.slice(0, tab).split(' ');
    if (type === 'blob') ids.set(record.slice(tab + 1), id);
  }
  return ids;
}

function personOf(principal: Principal): string | null {
  return principal.kind === 'user' ? `user:${principal.id}` : null;
}

/** The paths the person marked viewed whose file at `head` is still the one they viewed. */
export async function viewedPaths(
  ctx: AppContext,
  principal: Principal,
  review: ReviewRecord,
  head: string,
): Promise<string[]> {
  const person = personOf(principal);
  if (person === null) return [];
  const views = await ctx.store.read((tx) => tx.listReviewFileViews(review.id, person));
  if (views.length === 0) return [];
  const ids = await blobIds(
    await repoOf(ctx, review.runId),
    head,
    views.map((view) => view.path),
  );
  return views.filter((view) => (ids.get(view.path) ?? '') === view.blobId).map((view) => view.path);
}

/** Marks one changed file viewed (or not) for the person, at its blob at the current head. */
export async function markViewed(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  input: { path: string; viewed: boolean },
): Promise<string[]> {
  const person = personOf(principal);
  if (person === null) {
    throw new GatehouseError('FORBIDDEN', 'marking files viewed is for people reading the review');
  }
  const review = await ctx.store.read(async (tx) => {
    const stored = await loadReview(tx, principal, reviewId);
    const gate = stored.gateId === null ? null : await tx.getGate(stored.gateId);
    return { ...stored, status: effectiveStatus(stored, gate) };
  });
  const repo = await repoOf(ctx, review.runId);
  const [base, head] = await Promise.all([liveBase(repo, review), liveHead(repo, review)]);
  const files = await changedFiles(repo, base, head);
  if (!files.some((file) => file.path === input.path)) {
    throw new GatehouseError('VALIDATION_FAILED', `path ${input.path} is not a file this review changes`, {
      field: 'path',
      fields: [{ field: 'path', message: 'is not a file this review changes' }],
    });
  }
  const blob = input.viewed ? ((await blobIds(repo, head, [input.path])).get(input.path) ?? '') : null;
  await commit(ctx, (tools) =>
    tools.tx.setReviewFileView({
      reviewId: review.id,
      author: person,
      path: input.path,
      blobId: blob,
      at: tools.tx.now,
    }),
  );
  return viewedPaths(ctx, principal, review, head);
}
