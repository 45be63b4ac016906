import type { Migration } from 'kysely/migration';

type MigrationDb = Parameters<Migration['up']>[0];

async function createRoutingTables(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('notification_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('gate_types', 'text', (c) => c.notNull())
    .addColumn('risks', 'text', (c) => c.notNull())
    .addColumn('agent_ids', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('assignees_only', 'integer', (c) => c.notNull())
    .addColumn('triggers', 'text', (c) => c.notNull())
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

async function createQueueTables(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('notification_triggers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('gate_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_triggers_created')
    .on('notification_triggers')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createTable('notification_warnings')
    .addColumn('gate_id', 'text', (c) => c.notNull())
    .addColumn('timeout_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_warnings_pk', ['gate_id', 'timeout_at'])
    .execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('trigger_id', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('gate_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('ref', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('notifications_due')
    .on('notifications')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('notifications_gate')
    .on('notifications')
    .columns(['gate_id', 'user_id', 'channel', 'created_at'])
    .execute();
  await db.schema
    .createIndex('notifications_created')
    .on('notifications')
    .columns(['created_at', 'id'])
    .execute();
}

async function createLinkTables(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('notification_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('email_action_uses')
    .addColumn('link_id', 'text', (c) => c.primaryKey())
    .addColumn('gate_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Notification routing rules, people's channel choices, the notice queue and emailed links' uses. */
export function notificationsMigration(): Migration {
  return {
    async up(db) {
      await createRoutingTables(db);
      await createQueueTables(db);
      await createLinkTables(db);
    },
  };
}
