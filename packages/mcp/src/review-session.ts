import type { FileDiff, ReviewDocument } from 'gatehouse-hitl-protocol';
import { reviewIdSchema, runIdSchema } from 'gatehouse-hitl-protocol';
import type { GatehouseApi } from './api.js';
import type { McpLogger } from './context.js';
import type { ReviewApi } from './review-api.js';

/** What every review-session tool works with: a person's token, scoped to one run. */
export interface ReviewContext {
  /** Runs and gates. */
  api: GatehouseApi;
  /** Workspace, reviews, search, journal and audit. */
  reviews: ReviewApi;
  /** The one run this session may touch. */
  runId: string;
  log: McpLogger;
}

/** A call outside the session's run: refused before anything is sent. */
export class OutOfScopeError extends Error {}

export const sessionRunInput = runIdSchema.describe(
  'The run; only the run this review session was started for is allowed (the default)',
);

export const reviewIdInput = reviewIdSchema.describe(
  'The review (rev_…); defaults to the run’s open review, else its newest',
);

/** The session's run; any other run is refused. */
export function runOf(ctx: ReviewContext, runId: string | undefined): string {
  if (runId !== undefined && runId !== ctx.runId) {
    throw new OutOfScopeError(
      `this review session is for run ${ctx.runId} only; ${runId} is another run (start a session for it)`,
    );
  }
  return ctx.runId;
}

/** The review still in progress: waiting for a decision, or for the agent's answer to requested changes. */
export async function activeReview(ctx: ReviewContext, signal?: AbortSignal): Promise<ReviewDocument | null> {
  const { items } = await ctx.reviews.reviews(ctx.runId, signal);
  const active = items.filter((review) => review.status === 'open' || review.status === 'changes_requested');
  return active.sort((a, b) => b.updatedAt - a.updatedAt)[0] ?? null;
}

/** A review of the session's run: the one named, or the one in progress, or the newest. */
export async function reviewOf(
  ctx: ReviewContext,
  reviewId: string | undefined,
  signal?: AbortSignal,
): Promise<ReviewDocument> {
  if (reviewId !== undefined) {
    const { review } = await ctx.reviews.review(reviewId, signal);
    if (review.runId !== ctx.runId) {
      throw new OutOfScopeError(
        `review ${reviewId} belongs to another run; this review session is for run ${ctx.runId} only`,
      );
    }
    return review;
  }
  const active = await activeReview(ctx, signal);
  if (active) return active;
  const { items } = await ctx.reviews.reviews(ctx.runId, signal);
  const newest = [...items].sort((a, b) => b.createdAt - a.createdAt)[0];
  if (!newest) {
    throw new Error(`run ${ctx.runId} has no review yet: the agent has not checkpointed a phase branch`);
  }
  return newest;
}

/** The ref a read defaults to: the branch of the review in progress, else main. */
export async function defaultRef(ctx: ReviewContext, signal?: AbortSignal): Promise<string> {
  const active = await activeReview(ctx, signal);
  return active?.branch ?? 'main';
}

/** A file's diff as unified text with old and new line numbers, for the model to read. */
export function diffText(diff: FileDiff): string[] {
  const name = diff.oldPath && diff.oldPath !== diff.path ? `${diff.oldPath} → ${diff.path}` : diff.path;
  const lines = [`--- ${name} (${diff.status})`];
  if (diff.binary) return [...lines, '(binary file: no lines shown)'];
  for (const hunk of diff.hunks) {
    lines.push(hunk.header);
    for (const line of hunk.lines) {
      const mark = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
      const old = line.oldLine === null ? '' : String(line.oldLine);
      const now = line.newLine === null ? '' : String(line.newLine);
      lines.push(`${old.padStart(5)} ${now.padStart(5)} ${mark}${line.text}`);
    }
  }
  if (diff.truncated) lines.push('(diff cut at the size limit)');
  return lines;
}
