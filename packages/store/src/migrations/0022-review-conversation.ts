import type { Migration } from 'kysely/migration';

/**
 * A review's timeline and pending comments: each submitted review (its summary and verdict) and each
 * request for changes is a row of `review_summaries`; a comment stays `pending`, seen by its author
 * only, until they submit their review; a comment may cover a range of lines and carry a suggestion.
 */
export function reviewConversationMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('review_summaries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('review_id', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('commit_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('review_summaries_review')
        .on('review_summaries')
        .columns(['review_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .alterTable('review_comments')
        .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // A comment on a range of lines starts at start_line; a suggestion replaces that range.
      await db.schema.alterTable('review_comments').addColumn('start_line', 'integer').execute();
      await db.schema.alterTable('review_comments').addColumn('suggestion', 'text').execute();
      // "Viewed" per person and file: the blob it was viewed at, so a revision that changes the file resets it.
      await db.schema
        .createTable('review_file_views')
        .addColumn('review_id', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('blob_id', 'text', (c) => c.notNull())
        .addColumn('viewed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('review_file_views_pk', ['review_id', 'author', 'path'])
        .execute();
    },
  };
}
