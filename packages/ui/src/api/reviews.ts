import {
  type FileDiff,
  type ReviewComment,
  type ReviewCommentBody,
  type ReviewDocument,
  type ReviewEditBody,
  type ReviewEditResponse,
  type ReviewFileResponse,
  type ReviewFilesResponse,
  type ReviewResponse,
  type ReviewSubmissionBody,
  type ReviewSubmissionResponse,
  type ReviewVerdictBody,
  type ReviewVerdictDocument,
  reviewRoutes,
  type SquashMessage,
  type SquashMessageBody,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type {
  DiffHunk,
  DiffLine,
  FileContent,
  FileDiff,
  ReviewComment,
  ReviewDocument,
  ReviewFile,
  ReviewFilesResponse,
  ReviewRevision,
  ReviewSummary,
  ReviewVerdictDocument,
  SquashMessage,
} from 'gatehouse-hitl-protocol';

/** A run's reviews (one per phase branch), as the server orders them. */
export async function listRunReviews(runId: string, signal?: AbortSignal): Promise<ReviewDocument[]> {
  const page = await callApi(reviewRoutes.listOfRun, { params: { id: runId } }, signal);
  return page.items;
}

/** One review with every verdict given on it. */
export function getReview(id: string, signal?: AbortSignal): Promise<ReviewResponse> {
  return callApi(reviewRoutes.get, { params: { id } }, signal);
}

/**
 * The files the branch changes against main, with added and removed line counts; with `since`, the
 * files changed since that earlier revision's head.
 */
export function listReviewFiles(
  id: string,
  signal?: AbortSignal,
  since?: number | null,
): Promise<ReviewFilesResponse> {
  const query = since == null ? {} : { since };
  return callApi(reviewRoutes.files, { params: { id }, query }, signal);
}

/** One file's diff, hunk by hunk with old and new line numbers (since an earlier revision with `since`). */
export async function getReviewDiff(
  id: string,
  path: string,
  signal?: AbortSignal,
  since?: number | null,
): Promise<FileDiff> {
  const query = since == null ? { path } : { path, since };
  const answer = await callApi(reviewRoutes.diff, { params: { id }, query }, signal);
  return answer.diff;
}

/** A file as it reads on the branch (`head`) or on main (`base`). */
export async function getReviewFile(
  id: string,
  path: string,
  side: 'head' | 'base',
  signal?: AbortSignal,
): Promise<ReviewFileResponse['file']> {
  const answer = await callApi(reviewRoutes.file, { params: { id }, query: { path, side } }, signal);
  return answer.file;
}

/** Commits a person's edit of one file to the phase branch; a newer push than `expectedHead` answers 409. */
export function editReviewFile(id: string, body: ReviewEditBody): Promise<ReviewEditResponse> {
  return callApi(reviewRoutes.edit, { params: { id }, body });
}

/** Every comment of the review, threads and replies, oldest first. */
export async function listReviewComments(id: string, signal?: AbortSignal): Promise<ReviewComment[]> {
  const page = await callApi(reviewRoutes.comments, { params: { id } }, signal);
  return page.items;
}

/** A general, file or line comment, or a reply to a thread (`parentId`). */
export async function addReviewComment(id: string, body: ReviewCommentBody): Promise<ReviewComment> {
  const answer = await callApi(reviewRoutes.comment, { params: { id }, body });
  return answer.comment;
}

/** Resolves a thread, or reopens it with `resolved: false`. */
export function resolveReviewThread(id: string, commentId: string, resolved: boolean): Promise<unknown> {
  return callApi(reviewRoutes.resolve, { params: { id, commentId }, body: { resolved } });
}

/** Approves or requests changes on one file (`path`) or on the whole review. */
export async function giveReviewVerdict(
  id: string,
  body: ReviewVerdictBody,
): Promise<ReviewVerdictDocument[]> {
  const answer = await callApi(reviewRoutes.verdict, { params: { id }, body });
  return answer.verdicts;
}

/** Submits the person's pending review: publishes their pending comments with a summary that stays. */
export function submitReview(id: string, body: ReviewSubmissionBody): Promise<ReviewSubmissionResponse> {
  return callApi(reviewRoutes.submit, { params: { id }, body });
}

/** Sets the title and body the squash commit will carry (the server adds the trailers). */
export async function editSquashMessage(id: string, body: SquashMessageBody): Promise<SquashMessage> {
  const answer = await callApi(reviewRoutes.squashMessage, { params: { id }, body });
  return answer.squashMessage;
}

/** Applies a comment's suggestion as a commit in the person's name on the phase branch. */
export function applyReviewSuggestion(id: string, commentId: string): Promise<{ commit: string }> {
  return callApi(reviewRoutes.applySuggestion, { params: { id, commentId } });
}

/** Marks a changed file viewed (or not) for the signed-in person; answers every path they viewed. */
export async function markReviewFileViewed(id: string, path: string, viewed: boolean): Promise<string[]> {
  const answer = await callApi(reviewRoutes.viewed, { params: { id }, body: { path, viewed } });
  return answer.viewed;
}
