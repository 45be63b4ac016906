import type { Migration } from 'kysely/migration';

/** People's Slack user ids (one Slack user per person) and the signed Slack requests already seen. */
export function slackUsersMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('slack_users')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('slack_user_id', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('slack_seen_requests')
        .addColumn('signature', 'text', (c) => c.primaryKey())
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('slack_seen_requests_seen_at')
        .on('slack_seen_requests')
        .columns(['seen_at'])
        .execute();
    },
  };
}
