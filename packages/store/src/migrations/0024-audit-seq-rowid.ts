import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';
import { createAuditEventsIndexes, createAuditEventsTable } from './0001-initial.js';
import { createSqliteAppendOnlyTriggers } from './0004-audit-append-only.js';
import { createSqlitePrefixTrigger } from './0015-audit-retention-prefix.js';

type MigrationDb = Parameters<Migration['up']>[0];

// SQLite makes a column its rowid only when it is declared exactly INTEGER PRIMARY KEY; audit_events.seq
// was BIGINT, so every append also wrote a separate index on seq, and every read by seq went through it.
async function rebuildWithSeqAsRowid(db: MigrationDb): Promise<void> {
  await createAuditEventsTable(db, 'audit_events_next', 'integer');
  await sql`insert into audit_events_next (seq, id, at, kind, actor, subject, data, prev_hash, hash)
    select seq, id, at, kind, actor, subject, data, prev_hash, hash from audit_events order by seq`.execute(
    db,
  );
  // Dropping the table drops its indexes and triggers and fires none of them.
  await sql`drop table audit_events`.execute(db);
  await sql`alter table audit_events_next rename to audit_events`.execute(db);
  await createAuditEventsIndexes(db);
  await createSqliteAppendOnlyTriggers(db);
  await createSqlitePrefixTrigger(db);
}

/** On SQLite, the audit trail's seq becomes the table's own key (Postgres already keys it by seq). */
export function auditSeqRowidMigration(dialect: Dialect): Migration {
  return {
    async up(db) {
      if (dialect === 'sqlite') await rebuildWithSeqAsRowid(db);
    },
  };
}
