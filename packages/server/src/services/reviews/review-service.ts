import { type Gate, type PhaseReviewAnswer, phaseBranchName, resumeAfterFreeze } from 'gatehouse-hitl-core';
import type {
  FileContent,
  FileDiff,
  ReviewComment,
  ReviewDocument,
  ReviewFeedback,
  ReviewFile,
  ReviewSummary,
  ReviewVerdictDocument,
  SquashMessage,
} from 'gatehouse-hitl-protocol';
import type { ReviewRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import type { ResumeView } from '../runs/run-phase.js';
import { assertCanReadRun, loadRun } from '../runs/run-records.js';
import {
  addComment,
  type CommentInput,
  commentViews,
  putVerdict,
  resolveThread,
  visibleComments,
} from './review-comments.js';
import { editFile, reviewDiff, reviewFile, reviewFiles } from './review-files.js';
import { effectiveStatus, liveHead, loadReview, repoOf, viewOf } from './review-records.js';
import { editSquashMessage, squashMessageOf } from './review-squash.js';
import { type SubmissionVerdict, submitReview, summaryView } from './review-submissions.js';
import { applySuggestion } from './review-suggestions.js';
import { markViewed } from './review-views.js';

/** Reviews (pull requests of phase branches): reading, comments, verdicts and edits. */
export interface ReviewService {
  list(principal: Principal, runId: string): Promise<ReviewDocument[]>;
  get(
    principal: Principal,
    reviewId: string,
  ): Promise<{
    review: ReviewDocument;
    verdicts: ReviewVerdictDocument[];
    summaries: ReviewSummary[];
    squashMessage: SquashMessage;
  }>;
  /** Changed files against main, or since an earlier revision's head (`since`). */
  files(
    principal: Principal,
    reviewId: string,
    since?: number | undefined,
  ): Promise<{ base: string; head: string; files: ReviewFile[]; viewed: string[] }>;
  /** Marks a changed file viewed (or not) for the person; answers every path they viewed. */
  markViewed(
    principal: Principal,
    reviewId: string,
    input: { path: string; viewed: boolean },
  ): Promise<string[]>;
  diff(
    principal: Principal,
    reviewId: string,
    path: string,
    since?: number | undefined,
  ): Promise<{ base: string; head: string; diff: FileDiff }>;
  file(
    principal: Principal,
    input: { reviewId: string; path: string; side: 'head' | 'base' },
  ): Promise<FileContent>;
  edit(
    principal: Principal,
    input: {
      reviewId: string;
      path: string;
      text: string;
      message?: string | undefined;
      expectedHead: string;
    },
  ): Promise<{ commit: string; review: ReviewDocument }>;
  comments(principal: Principal, reviewId: string): Promise<ReviewComment[]>;
  comment(principal: Principal, reviewId: string, input: CommentInput): Promise<ReviewComment>;
  resolve(
    principal: Principal,
    input: { reviewId: string; commentId: string; resolved: boolean },
  ): Promise<ReviewComment>;
  verdict(
    principal: Principal,
    reviewId: string,
    input: { path?: string | undefined; verdict: 'approve' | 'request_changes' },
  ): Promise<ReviewVerdictDocument[]>;
  /** Commits a comment's suggestion to the phase branch in the person's name. */
  applySuggestion(
    principal: Principal,
    input: { reviewId: string; commentId: string },
  ): Promise<{ commit: string; comment: ReviewComment }>;
  /** A person's title and body for the squash commit. */
  editSquashMessage(
    principal: Principal,
    reviewId: string,
    input: { title: string; body: string },
  ): Promise<SquashMessage>;
  /** Submits the person's pending review with a summary that stays in the conversation. */
  submit(
    principal: Principal,
    reviewId: string,
    input: { verdict: SubmissionVerdict; body: string },
  ): Promise<{ summary: ReviewSummary; published: number }>;
  /** The branch people may push to (the one under review), or null when no review of the run is open. */
  openBranch(runId: string): Promise<string | null>;
  /** The branch of the run's review waiting for people's decision (its gate pending), or null. */
  frozenBranch(runId: string): Promise<string | null>;
  /** The id of the run's review under way (open or changes requested), or null; the run must be readable. */
  openReviewId(principal: Principal, runId: string): Promise<string | null>;
  /** What a resumed agent reads after its review asked for changes; null for any other review. */
  feedback(reviewId: string): Promise<ReviewFeedback | null>;
}

async function gatesOf(ctx: AppContext, reviews: readonly ReviewRecord[]): Promise<Map<string, Gate>> {
  const ids = reviews.flatMap((review) => (review.gateId === null ? [] : [review.gateId]));
  const gates = await ctx.store.read((tx) => Promise.all(ids.map((id) => tx.getGate(id))));
  return new Map(gates.flatMap((gate) => (gate === null ? [] : [[gate.id, gate] as const])));
}

/** Where the agent answers: the next `-rev-M` branch when it re-enters the phase, else the next phase's branch. */
export function nextBranchOf(review: ReviewRecord, feedback: string): string {
  const boundary = {
    phaseNumber: review.phase,
    phaseType: review.type,
    jobCompleteCalled: review.jobComplete,
  };
  const answer: PhaseReviewAnswer = { feedback: feedback.trim() === '' ? 'changes requested' : feedback };
  const plan = resumeAfterFreeze(boundary, answer);
  return plan.phaseNumber === review.phase && plan.phaseType === review.type
    ? phaseBranchName(review.phase, review.type, review.revision + 1)
    : phaseBranchName(plan.phaseNumber, plan.phaseType);
}

/** The run's latest review still under way: open, or waiting for the agent's changes. */
async function reviewUnderWay(
  ctx: AppContext,
  runId: string,
  statuses: readonly string[] = ['open', 'changes_requested'],
): Promise<ReviewRecord | null> {
  const reviews = await ctx.store.read((tx) => tx.listReviews(runId));
  const gates = await gatesOf(ctx, reviews);
  const open = reviews.filter((review) =>
    statuses.includes(effectiveStatus(review, gates.get(review.gateId ?? '') ?? null)),
  );
  return open.at(-1) ?? null;
}

async function readFeedback(ctx: AppContext, reviewId: string): Promise<ReviewFeedback | null> {
  const found = await ctx.store.read(async (tx) => {
    const review = await tx.getReview(reviewId);
    if (review === null || review.status !== 'changes_requested') return null;
    const gate = review.gateId === null ? null : await tx.getGate(review.gateId);
    return {
      review,
      gate,
      comments: await tx.listReviewComments(reviewId),
      summaries: await tx.listReviewSummaries(reviewId),
    };
  });
  if (found === null) return null;
  const { review, gate, comments, summaries } = found;
  const head = await liveHead(await repoOf(ctx, review.runId), review);
  return {
    reviewId: review.id,
    branch: review.branch,
    nextBranch: nextBranchOf(review, gate?.decision?.feedback ?? ''),
    headCommit: head,
    comments: await commentViews(
      ctx,
      review,
      comments.filter((comment) => !comment.pending),
    ),
    summaries: summaries.map(summaryView),
  };
}

/** A run's resume step with its review's feedback when that review asked for changes on a branch. */
export async function withReviewFeedback<D extends { resume: ResumeView | null }>(
  ctx: AppContext,
  detail: D,
  gate: Gate | null,
): Promise<D> {
  const reviewId = gate?.context.reviewId;
  if (detail.resume === null || typeof reviewId !== 'string') return detail;
  const review = await readFeedback(ctx, reviewId);
  return review === null ? detail : { ...detail, resume: { ...detail.resume, review } };
}

/** Creates the review service. */
export function createReviewService(ctx: AppContext): ReviewService {
  return {
    async list(principal, runId) {
      const reviews = await ctx.store.read(async (tx) => {
        const run = await loadRun(tx, runId);
        assertCanReadRun(principal, run);
        return tx.listReviews(runId);
      });
      const gates = await gatesOf(ctx, reviews);
      return Promise.all(
        reviews.map((review) => viewOf(ctx, review, gates.get(review.gateId ?? '') ?? null)),
      );
    },
    async get(principal, reviewId) {
      const { review, gate, verdicts, summaries, runName } = await ctx.store.read(async (tx) => {
        const stored = await loadReview(tx, principal, reviewId);
        const found = stored.gateId === null ? null : await tx.getGate(stored.gateId);
        const run = (await tx.getRun(stored.runId)) as { title?: string | null } | null;
        return {
          review: stored,
          gate: found,
          verdicts: await tx.listReviewVerdicts(reviewId),
          summaries: await tx.listReviewSummaries(reviewId),
          runName: run?.title ?? stored.runId,
        };
      });
      return {
        review: await viewOf(ctx, review, gate),
        verdicts,
        summaries: summaries.map(summaryView),
        squashMessage: squashMessageOf(review, runName),
      };
    },
    files: (principal, reviewId, since) => reviewFiles(ctx, principal, reviewId, since),
    diff: (principal, reviewId, path, since) => reviewDiff(ctx, principal, reviewId, path, since),
    file: (principal, input) => reviewFile(ctx, principal, input),
    edit: (principal, input) => editFile(ctx, principal, input),
    async comments(principal, reviewId) {
      const { review, comments } = await ctx.store.read(async (tx) => ({
        review: await loadReview(tx, principal, reviewId),
        comments: await tx.listReviewComments(reviewId),
      }));
      return commentViews(ctx, review, visibleComments(principal, comments));
    },
    comment: (principal, reviewId, input) => addComment(ctx, principal, reviewId, input),
    resolve: (principal, input) => resolveThread(ctx, principal, input),
    verdict: (principal, reviewId, input) => putVerdict(ctx, principal, reviewId, input),
    submit: (principal, reviewId, input) => submitReview(ctx, principal, reviewId, input),
    editSquashMessage: (principal, reviewId, input) => editSquashMessage(ctx, principal, reviewId, input),
    applySuggestion: (principal, input) => applySuggestion(ctx, principal, input),
    markViewed: (principal, reviewId, input) => markViewed(ctx, principal, reviewId, input),
    openBranch: async (runId) => (await reviewUnderWay(ctx, runId))?.branch ?? null,
    frozenBranch: async (runId) => (await reviewUnderWay(ctx, runId, ['open']))?.branch ?? null,
    async openReviewId(principal, runId) {
      const run = await ctx.store.read((tx) => loadRun(tx, runId));
      assertCanReadRun(principal, run);
      return (await reviewUnderWay(ctx, runId))?.id ?? null;
    },
    feedback: (reviewId) => readFeedback(ctx, reviewId),
  };
}
