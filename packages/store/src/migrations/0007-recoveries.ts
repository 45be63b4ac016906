import type { Migration } from 'kysely/migration';

type MigrationDb = Parameters<Migration['up']>[0];

async function createRecoveries(db: MigrationDb): Promise<void> {
  // One recovery per run and finding key (pattern + file + name or line).
  await db.schema
    .createTable('recoveries')
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('finding_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('recoveries_pk', ['run_id', 'finding_key'])
    .execute();
}

async function createFalsePositives(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('false_positives')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text')
    .addColumn('finding_key', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('gate_id', 'text')
    .addColumn('confirmed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('false_positives_pattern')
    .on('false_positives')
    .columns(['pattern', 'created_at'])
    .execute();
  await db.schema.createIndex('false_positives_run').on('false_positives').columns(['run_id']).execute();
}

/** Recovery state per run and finding, and the findings people confirmed as false positives. */
export function recoveriesMigration(): Migration {
  return {
    async up(db) {
      await createRecoveries(db);
      await createFalsePositives(db);
    },
  };
}
