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

export async function setReviewFileView(
  { db }: TxContext,
  view: { reviewId: string; author: string; path: string; blobId: string | null; at: number },
): Promise<void> {
  const key = { review_id: view.reviewId, author: view.author, path: view.path };
  if (view.blobId === null) {
    await db
      .deleteFrom('review_file_views')
      .where('review_id', '=', key.review_id)
      .where('author', '=', key.author)
      .where('path', '=', key.path)
      .execute();
    return;
  }
  const row = { ...key, blob_id: view.blobId, viewed_at: view.at };
  await db
    .insertInto('review_file_views')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['review_id', 'author', 'path'])
        .doUpdateSet({ blob_id: row.blob_id, viewed_at: row.viewed_at }),
    )
    .execute();
}

export async function listReviewFileViews(
  { db }: TxContext,
  reviewId: string,
  author: string,
): Promise<{ path: string; blobId: string }[]> {
  const rows = await db
    .selectFrom('review_file_views')
    .select(['path', 'blob_id'])
    .where('review_id', '=', reviewId)
    .where('author', '=', author)
    .orderBy('path')
    .execute();
  return rows.map((row) => ({ path: row.path, blobId: row.blob_id }));
}
