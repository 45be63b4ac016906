import type { Selectable } from 'kysely';
import type { ReviewCommentsTable } from '../db/review-tables.js';
import type { TxContext } from '../db/schema.js';
import type { ReviewCommentRecord, ReviewRecord, ReviewVerdictRecord } from '../review-types.js';
import { changed, int, intOrNull, parseJson } from './rows.js';

type StoredReview = ReviewRecord & { version: number };

/** The stored document: a `version` read back belongs to the row, not the document. */
function documentOf(review: ReviewRecord): string {
  const { version: _version, ...document } = review as ReviewRecord & { version?: unknown };
  return JSON.stringify(document);
}

function reviewOf(row: { data: string; version: number | string }): StoredReview {
  return { ...parseJson<ReviewRecord>(row.data), version: int(row.version) };
}

export async function insertReview({ db }: TxContext, review: ReviewRecord): Promise<void> {
  await db
    .insertInto('reviews')
    .values({
      id: review.id,
      run_id: review.runId,
      phase: review.phase,
      type: review.type,
      job_complete: review.jobComplete ? 1 : 0,
      status: review.status,
      created_at: review.createdAt,
      version: 1,
      data: documentOf(review),
    })
    .execute();
}

export async function getReview({ db }: TxContext, id: string): Promise<StoredReview | null> {
  const row = await db
    .selectFrom('reviews')
    .select(['data', 'version'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? null : reviewOf(row);
}

export async function findReview(
  { db }: TxContext,
  boundary: { runId: string; phase: number; type: string; jobComplete: boolean },
): Promise<StoredReview | null> {
  const row = await db
    .selectFrom('reviews')
    .select(['data', 'version'])
    .where('run_id', '=', boundary.runId)
    .where('phase', '=', boundary.phase)
    .where('type', '=', boundary.type)
    .where('job_complete', '=', boundary.jobComplete ? 1 : 0)
    .executeTakeFirst();
  return row === undefined ? null : reviewOf(row);
}

export async function listReviews({ db }: TxContext, runId: string): Promise<ReviewRecord[]> {
  const rows = await db
    .selectFrom('reviews')
    .select(['data', 'version'])
    .where('run_id', '=', runId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const { version: _version, ...review } = reviewOf(row);
    return review;
  });
}

export async function updateReview(
  { db }: TxContext,
  review: ReviewRecord,
  expectedVersion: number,
): Promise<boolean> {
  const result = await db
    .updateTable('reviews')
    .set({ status: review.status, version: expectedVersion + 1, data: documentOf(review) })
    .where('id', '=', review.id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

export async function insertReviewComment({ db }: TxContext, comment: ReviewCommentRecord): Promise<void> {
  await db
    .insertInto('review_comments')
    .values({
      id: comment.id,
      review_id: comment.reviewId,
      parent_id: comment.parentId,
      path: comment.path,
      line: comment.line,
      side: comment.side,
      commit_id: comment.commit,
      line_text: comment.lineText,
      author: comment.author,
      author_name: comment.authorName,
      body: comment.body,
      resolved: comment.resolved ? 1 : 0,
      pending: comment.pending ? 1 : 0,
      start_line: comment.startLine ?? null,
      suggestion: comment.suggestion ?? null,
      created_at: comment.createdAt,
    })
    .execute();
}

type CommentRow = Selectable<ReviewCommentsTable>;

function commentOf(row: CommentRow): ReviewCommentRecord {
  return {
    id: row.id,
    reviewId: row.review_id,
    parentId: row.parent_id,
    path: row.path,
    line: intOrNull(row.line),
    side: row.side === 'new' || row.side === 'old' ? row.side : null,
    commit: row.commit_id,
    lineText: row.line_text,
    author: row.author,
    authorName: row.author_name,
    body: row.body,
    resolved: int(row.resolved) === 1,
    pending: int(row.pending) === 1,
    startLine: intOrNull(row.start_line),
    suggestion: row.suggestion,
    createdAt: int(row.created_at),
  };
}

export async function getReviewComment({ db }: TxContext, id: string): Promise<ReviewCommentRecord | null> {
  const row = await db.selectFrom('review_comments').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : commentOf(row);
}

export async function listReviewComments(
  { db }: TxContext,
  reviewId: string,
): Promise<ReviewCommentRecord[]> {
  const rows = await db
    .selectFrom('review_comments')
    .selectAll()
    .where('review_id', '=', reviewId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(commentOf);
}

export async function setReviewCommentResolved(
  { db }: TxContext,
  id: string,
  resolved: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('review_comments')
    .set({ resolved: resolved ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

export async function putReviewVerdict({ db }: TxContext, verdict: ReviewVerdictRecord): Promise<void> {
  const row = {
    review_id: verdict.reviewId,
    path: verdict.path ?? '',
    author: verdict.author,
    author_name: verdict.authorName,
    verdict: verdict.verdict,
    commit_id: verdict.commit,
    created_at: verdict.createdAt,
  };
  await db
    .insertInto('review_verdicts')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['review_id', 'path', 'author']).doUpdateSet({
        author_name: row.author_name,
        verdict: row.verdict,
        commit_id: row.commit_id,
        created_at: row.created_at,
      }),
    )
    .execute();
}

export async function listReviewVerdicts(
  { db }: TxContext,
  reviewId: string,
): Promise<ReviewVerdictRecord[]> {
  const rows = await db
    .selectFrom('review_verdicts')
    .selectAll()
    .where('review_id', '=', reviewId)
    .orderBy('created_at')
    .orderBy('path')
    .orderBy('author')
    .execute();
  return rows.map((row) => ({
    reviewId: row.review_id,
    path: row.path === '' ? null : row.path,
    author: row.author,
    authorName: row.author_name,
    verdict: row.verdict === 'approve' ? 'approve' : 'request_changes',
    commit: row.commit_id,
    createdAt: int(row.created_at),
  }));
}
