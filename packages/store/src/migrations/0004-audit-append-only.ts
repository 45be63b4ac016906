import { type RawBuilder, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';

type MigrationDb = Parameters<Migration['up']>[0];

/** The setting (Postgres) that retention turns on, for its own transaction only, to remove audit rows. */
export const RETENTION_SETTING = 'gatehouse.retention';

const REFUSAL = 'audit_events is append-only: only retention may remove its oldest events';
const START_REFUSAL = 'audit_checkpoint is written by retention only';

function name(schema: string | undefined, object: string): RawBuilder<unknown> {
  return schema === undefined ? sql.id(object) : sql.id(schema, object);
}

const guardOff = sql.raw('not exists (select 1 from audit_retention_guard)');

/** SQLite's triggers on audit_events: no update, and no delete unless retention opened its guard. */
export async function createSqliteAppendOnlyTriggers(db: MigrationDb): Promise<void> {
  await sql`create trigger audit_events_no_update before update on audit_events
    begin select raise(abort, ${sql.lit(REFUSAL)}); end`.execute(db);
  await sql`create trigger audit_events_no_delete before delete on audit_events when ${guardOff}
    begin select raise(abort, ${sql.lit(REFUSAL)}); end`.execute(db);
}

// SQLite has no session settings: retention inserts a row here and deletes it in the same transaction.
async function sqliteTriggers(db: MigrationDb): Promise<void> {
  await sql`create table audit_retention_guard (id integer primary key check (id = 1))`.execute(db);
  await createSqliteAppendOnlyTriggers(db);
  for (const operation of ['insert', 'update', 'delete']) {
    await sql`create trigger ${sql.raw(`audit_checkpoint_no_${operation}`)}
      before ${sql.raw(operation)} on audit_checkpoint when ${guardOff}
      begin select raise(abort, ${sql.lit(START_REFUSAL)}); end`.execute(db);
  }
}

async function postgresTriggers(db: MigrationDb, schema: string | undefined): Promise<void> {
  const fn = name(schema, 'gatehouse_audit_append_only');
  await sql`create function ${fn}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and tg_table_name = 'audit_events'
        and current_setting(${sql.lit(RETENTION_SETTING)}, true) = 'on' then
        return old;
      end if;
      if tg_table_name = 'audit_checkpoint' and current_setting(${sql.lit(RETENTION_SETTING)}, true) = 'on' then
        return coalesce(new, old);
      end if;
      raise exception using errcode = 'insufficient_privilege', message = case tg_table_name
        when 'audit_events' then ${sql.lit(REFUSAL)} else ${sql.lit(START_REFUSAL)} end;
    end $$`.execute(db);
  const events = name(schema, 'audit_events');
  const start = name(schema, 'audit_checkpoint');
  await sql`create trigger audit_events_append_only before update or delete on ${events}
    for each row execute function ${fn}()`.execute(db);
  await sql`create trigger audit_events_no_truncate before truncate on ${events}
    for each statement execute function ${fn}()`.execute(db);
  await sql`create trigger audit_checkpoint_retention_only before insert or update or delete on ${start}
    for each row execute function ${fn}()`.execute(db);
  await sql`create trigger audit_checkpoint_no_truncate before truncate on ${start}
    for each statement execute function ${fn}()`.execute(db);
}

/**
 * Audit rows can be appended, never changed: triggers refuse UPDATE and DELETE except for
 * retention's own path. The retention start gains the signature that lets it be trusted.
 */
export function auditAppendOnlyMigration(dialect: Dialect, schema?: string): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('audit_checkpoint').addColumn('key_id', 'text').execute();
      await db.schema.alterTable('audit_checkpoint').addColumn('signature', 'text').execute();
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db, schema);
    },
  };
}
