import type { ReviewComment, ReviewFeedback } from 'gatehouse-hitl-protocol';
import { lightRoutes } from 'gatehouse-hitl-protocol/rules';
import type { Transport } from './http.js';

/** A new comment on a review: general, on a file, or on a line of the branch's version. */
export interface ReviewCommentInput {
  body: string;
  /** The file, for a file or line comment. */
  path?: string | undefined;
  /** The line in the branch's version of `path`. */
  line?: number | undefined;
}

/** The comment a reply answers: any comment of the thread (replies go to the thread's first comment). */
export type RepliedComment = Pick<ReviewComment, 'id' | 'reviewId' | 'parentId'>;

function checkBody(body: unknown): string {
  if (typeof body !== 'string' || body.trim() === '') {
    throw new TypeError('body must be a non-empty string: the comment’s text');
  }
  return body;
}

/** What a run resumed after its review asked for changes must answer; null otherwise. */
export async function readReviewFeedback(
  transport: Transport,
  runId: string,
  signal?: AbortSignal,
): Promise<ReviewFeedback | null> {
  const detail = await transport.route(
    lightRoutes.runs.get,
    { params: { id: runId } },
    { signal, retry: 'always' },
  );
  return detail.resume?.review ?? null;
}

/** Every comment of a review, threads' first comments and replies, oldest first. */
export async function listReviewComments(
  transport: Transport,
  reviewId: string,
  signal?: AbortSignal,
): Promise<ReviewComment[]> {
  const body = await transport.route(
    lightRoutes.reviews.comments,
    { params: { id: reviewId } },
    { signal, retry: 'always' },
  );
  return body.items;
}

/** Posts a comment (or, with `parentId`, a reply) on a review. */
export async function postReviewComment(
  transport: Transport,
  reviewId: string,
  input: ReviewCommentInput & { parentId?: string | undefined },
  signal?: AbortSignal,
): Promise<ReviewComment> {
  if (input.line !== undefined && input.path === undefined) {
    throw new TypeError('path is required with line: a line comment names its file');
  }
  if (input.line !== undefined && (!Number.isInteger(input.line) || input.line < 1)) {
    throw new RangeError(`line must be a whole number from 1 (got ${String(input.line)})`);
  }
  const request = {
    body: checkBody(input.body),
    ...(input.parentId === undefined ? {} : { parentId: input.parentId }),
    ...(input.path === undefined ? {} : { path: input.path }),
    ...(input.line === undefined ? {} : { line: input.line }),
  };
  const body = await transport.route(
    lightRoutes.reviews.comment,
    { params: { id: reviewId }, body: request },
    { signal, retry: 'safe' },
  );
  return body.comment;
}

/** The thread a reply belongs to: the first comment's id. */
export function threadOf(comment: RepliedComment): string {
  return comment.parentId ?? comment.id;
}
