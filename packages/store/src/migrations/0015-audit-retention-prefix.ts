import { type RawBuilder, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';

type MigrationDb = Parameters<Migration['up']>[0];

const REFUSAL =
  'audit retention removes only the oldest events: an older event than one removed would remain';

function name(schema: string | undefined, object: string): RawBuilder<unknown> {
  return schema === undefined ? sql.id(object) : sql.id(schema, object);
}

// Rows are deleted in the order of the scan, oldest first for a prefix: a row with an older one left is not one.
/** SQLite's trigger that lets a delete from audit_events remove only the oldest events. */
export async function createSqlitePrefixTrigger(db: MigrationDb): Promise<void> {
  await sql`create trigger audit_events_prefix_only after delete on audit_events
    when exists (select 1 from audit_events where seq < old.seq)
    begin select raise(abort, ${sql.lit(REFUSAL)}); end`.execute(db);
}

// Checked once the statement is done, over all it removed, so the order rows were deleted in does not matter.
async function postgresTrigger(db: MigrationDb, schema: string | undefined): Promise<void> {
  const fn = name(schema, 'gatehouse_audit_prefix_only');
  const events = name(schema, 'audit_events');
  await sql`create function ${fn}() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from ${events} kept where kept.seq < (select max(seq) from removed)) then
        raise exception using errcode = 'insufficient_privilege', message = ${sql.lit(REFUSAL)};
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger audit_events_prefix_only after delete on ${events}
    referencing old table as removed for each statement execute function ${fn}()`.execute(db);
}

/**
 * Whoever opens retention's exception to the append-only rule may remove only the oldest events:
 * a delete that leaves an event older than one it removed is refused.
 */
export function auditRetentionPrefixMigration(dialect: Dialect, schema?: string): Migration {
  return {
    async up(db) {
      if (dialect === 'sqlite') await createSqlitePrefixTrigger(db);
      else await postgresTrigger(db, schema);
    },
  };
}
