import type { Migration } from 'kysely/migration';

type MigrationDb = Parameters<Migration['up']>[0];

async function createReviews(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('job_complete', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  // One review per phase boundary: a `-rev-M` checkpoint updates it rather than opening another.
  await db.schema
    .createIndex('reviews_boundary')
    .on('reviews')
    .columns(['run_id', 'phase', 'type', 'job_complete'])
    .unique()
    .execute();
}

async function createComments(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('review_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('review_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('path', 'text')
    .addColumn('line', 'integer')
    .addColumn('side', 'text')
    .addColumn('commit_id', 'text', (c) => c.notNull())
    .addColumn('line_text', 'text')
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('resolved', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('review_comments_review')
    .on('review_comments')
    .columns(['review_id', 'created_at', 'id'])
    .execute();
}

async function createVerdicts(db: MigrationDb): Promise<void> {
  // `path` is '' for the whole review, so one person's latest verdict per file replaces the last.
  await db.schema
    .createTable('review_verdicts')
    .addColumn('review_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('commit_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('review_verdicts_pk', ['review_id', 'path', 'author'])
    .execute();
}

/** Reviews (pull requests of phase branches), their comments and verdicts. */
export function reviewsMigration(): Migration {
  return {
    async up(db) {
      await createReviews(db);
      await createComments(db);
      await createVerdicts(db);
    },
  };
}
