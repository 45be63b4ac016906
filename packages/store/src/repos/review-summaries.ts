import type { TxContext } from '../db/schema.js';
import type { ReviewSummaryRecord } from '../review-types.js';
import { changed, int } from './rows.js';

const KINDS = new Set<string>(['approve', 'comment', 'request_changes']);

export async function insertReviewSummary({ db }: TxContext, summary: ReviewSummaryRecord): Promise<void> {
  await db
    .insertInto('review_summaries')
    .values({
      id: summary.id,
      review_id: summary.reviewId,
      revision: summary.revision,
      kind: summary.kind,
      body: summary.body,
      author: summary.author,
      author_name: summary.authorName,
      commit_id: summary.commit,
      created_at: summary.createdAt,
    })
    .execute();
}

export async function listReviewSummaries(
  { db }: TxContext,
  reviewId: string,
): Promise<ReviewSummaryRecord[]> {
  const rows = await db
    .selectFrom('review_summaries')
    .selectAll()
    .where('review_id', '=', reviewId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    reviewId: row.review_id,
    revision: int(row.revision),
    kind: (KINDS.has(row.kind) ? row.kind : 'comment') as ReviewSummaryRecord['kind'],
    body: row.body,
    author: row.author,
    authorName: row.author_name,
    commit: row.commit_id,
    createdAt: int(row.created_at),
  }));
}

export async function publishReviewComments(
  { db }: TxContext,
  reviewId: string,
  author: string,
): Promise<number> {
  const result = await db
    .updateTable('review_comments')
    .set({ pending: 0 })
    .where('review_id', '=', reviewId)
    .where('author', '=', author)
    .where('pending', '=', 1)
    .executeTakeFirst();
  return changed(result.numUpdatedRows);
}
