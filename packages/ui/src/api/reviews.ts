import type {
  FileDiff,
  ReviewComment,
  ReviewCommentBody,
  ReviewCommentListResponse,
  ReviewCommentResponse,
  ReviewDiffResponse,
  ReviewDocument,
  ReviewEditBody,
  ReviewEditResponse,
  ReviewFileResponse,
  ReviewFilesResponse,
  ReviewListResponse,
  ReviewResponse,
  ReviewVerdictBody,
  ReviewVerdictDocument,
  ReviewVerdictResponse,
} from 'gatehouse-hitl-protocol';
import { api } from './client.js';

export type {
  DiffHunk,
  DiffLine,
  FileContent,
  FileDiff,
  ReviewComment,
  ReviewDocument,
  ReviewFile,
  ReviewFilesResponse,
  ReviewVerdictDocument,
} from 'gatehouse-hitl-protocol';

const reviewPath = (id: string, rest = '') => `/v1/reviews/${encodeURIComponent(id)}${rest}`;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** A run's reviews (one per phase branch), as the server orders them. */
export async function listRunReviews(runId: string, signal?: AbortSignal): Promise<ReviewDocument[]> {
  const page = await api<ReviewListResponse>(
    'GET',
    `/v1/runs/${encodeURIComponent(runId)}/reviews`,
    withSignal(signal),
  );
  return page.items;
}

/** One review with every verdict given on it. */
export function getReview(id: string, signal?: AbortSignal): Promise<ReviewResponse> {
  return api<ReviewResponse>('GET', reviewPath(id), withSignal(signal));
}

/** The files the branch changes against main, with added and removed line counts. */
export function listReviewFiles(id: string, signal?: AbortSignal): Promise<ReviewFilesResponse> {
  return api<ReviewFilesResponse>('GET', reviewPath(id, '/files'), withSignal(signal));
}

/** One file's diff, hunk by hunk with old and new line numbers. */
export async function getReviewDiff(id: string, path: string, signal?: AbortSignal): Promise<FileDiff> {
  const answer = await api<ReviewDiffResponse>('GET', reviewPath(id, '/diff'), {
    query: { path },
    ...withSignal(signal),
  });
  return answer.diff;
}

/** A file as it reads on the branch (`head`) or on main (`base`). */
export async function getReviewFile(
  id: string,
  path: string,
  side: 'head' | 'base',
  signal?: AbortSignal,
): Promise<ReviewFileResponse['file']> {
  const answer = await api<ReviewFileResponse>('GET', reviewPath(id, '/file'), {
    query: { path, side },
    ...withSignal(signal),
  });
  return answer.file;
}

/** Commits a person's edit of one file to the phase branch; a newer push than `expectedHead` answers 409. */
export function editReviewFile(id: string, body: ReviewEditBody): Promise<ReviewEditResponse> {
  return api<ReviewEditResponse>('PUT', reviewPath(id, '/file'), { body });
}

/** Every comment of the review, threads and replies, oldest first. */
export async function listReviewComments(id: string, signal?: AbortSignal): Promise<ReviewComment[]> {
  const page = await api<ReviewCommentListResponse>('GET', reviewPath(id, '/comments'), withSignal(signal));
  return page.items;
}

/** A general, file or line comment, or a reply to a thread (`parentId`). */
export async function addReviewComment(id: string, body: ReviewCommentBody): Promise<ReviewComment> {
  const answer = await api<ReviewCommentResponse>('POST', reviewPath(id, '/comments'), { body });
  return answer.comment;
}

/** Resolves a thread, or reopens it with `resolved: false`. */
export function resolveReviewThread(id: string, commentId: string, resolved: boolean): Promise<unknown> {
  return api('POST', reviewPath(id, `/comments/${encodeURIComponent(commentId)}/resolve`), {
    body: { resolved },
  });
}

/** Approves or requests changes on one file (`path`) or on the whole review. */
export async function giveReviewVerdict(
  id: string,
  body: ReviewVerdictBody,
): Promise<ReviewVerdictDocument[]> {
  const answer = await api<ReviewVerdictResponse>('POST', reviewPath(id, '/verdicts'), { body });
  return answer.verdicts;
}
