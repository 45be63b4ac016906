import type { Migration } from 'kysely/migration';

type MigrationDb = Parameters<Migration['up']>[0];

async function createWhitelists(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('whitelists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('path', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('justification', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .addColumn('review_gate_id', 'text')
    .addColumn('source_gate_id', 'text')
    .addColumn('suppressed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

async function createDetections(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('detections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text')
    .addColumn('finding_key', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('snippet', 'text', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('suppressed_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('detections_pattern').on('detections').columns(['pattern']).execute();
  await db.schema
    .createIndex('detections_run_finding')
    .on('detections')
    .columns(['run_id', 'finding_key'])
    .execute();
  await db.schema
    .createTable('pattern_alerts')
    .addColumn('pattern', 'text', (c) => c.primaryKey())
    .addColumn('alerted_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Whitelist entries, every detection per pattern, and which patterns are over the false-positive alert. */
export function whitelistsMigration(): Migration {
  return {
    async up(db) {
      await createWhitelists(db);
      await createDetections(db);
    },
  };
}
