import { type RawBuilder, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';

type MigrationDb = Parameters<Migration['up']>[0];

const ROW_REFUSAL = 'the audit filter index keeps a row until retention has removed its event';
const MARK_REFUSAL = 'the audit filter index mark only moves forward';

function name(schema: string | undefined, object: string): RawBuilder<unknown> {
  return schema === undefined ? sql.id(object) : sql.id(schema, object);
}

async function createTables(db: MigrationDb, dialect: Dialect): Promise<void> {
  // SQLite stores the key itself as the table: one B-tree per filter instead of a table and an index.
  const withoutRowid = dialect === 'sqlite' ? sql`without rowid` : sql``;
  for (const [table, column] of [
    ['audit_by_actor', 'actor'],
    ['audit_by_subject', 'subject'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(column, 'text', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [column, 'seq'])
      .modifyEnd(withoutRowid)
      .execute();
  }
  await db.schema
    .createTable('audit_filter_mark')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
}

async function fill(db: MigrationDb): Promise<void> {
  await db
    .insertInto('audit_by_actor')
    .columns(['actor', 'seq'])
    .expression(db.selectFrom('audit_events').select(['actor', 'seq']).orderBy('actor').orderBy('seq'))
    .execute();
  await db
    .insertInto('audit_by_subject')
    .columns(['subject', 'seq'])
    .expression(
      db
        .selectFrom('audit_events')
        .select(['subject', 'seq'])
        .where('subject', 'is not', null)
        .orderBy('subject')
        .orderBy('seq'),
    )
    .execute();
  await db
    .insertInto('audit_filter_mark')
    .columns(['id', 'seq'])
    .expression(
      db
        .selectFrom('audit_events')
        .select((eb) => [sql.lit(1).as('id'), eb.fn.coalesce(eb.fn.max('seq'), sql.lit(0)).as('seq')]),
    )
    .execute();
}

async function sqliteTriggers(db: MigrationDb): Promise<void> {
  for (const table of ['audit_by_actor', 'audit_by_subject']) {
    await sql`create trigger ${sql.raw(`${table}_no_update`)} before update on ${sql.id(table)}
      begin select raise(abort, ${sql.lit(ROW_REFUSAL)}); end`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_no_delete`)} before delete on ${sql.id(table)}
      when exists (select 1 from audit_events where seq = old.seq)
      begin select raise(abort, ${sql.lit(ROW_REFUSAL)}); end`.execute(db);
  }
  await sql`create trigger audit_filter_mark_forward before update on audit_filter_mark
    when new.seq < old.seq or new.id <> old.id
    begin select raise(abort, ${sql.lit(MARK_REFUSAL)}); end`.execute(db);
  await sql`create trigger audit_filter_mark_no_delete before delete on audit_filter_mark
    begin select raise(abort, ${sql.lit(MARK_REFUSAL)}); end`.execute(db);
}

async function postgresTriggers(db: MigrationDb, schema: string | undefined): Promise<void> {
  const rows = name(schema, 'gatehouse_audit_filter_rows');
  const events = name(schema, 'audit_events');
  await sql`create function ${rows}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and not exists (select 1 from ${events} e where e.seq = old.seq) then
        return old;
      end if;
      raise exception using errcode = 'insufficient_privilege', message = ${sql.lit(ROW_REFUSAL)};
    end $$`.execute(db);
  const mark = name(schema, 'gatehouse_audit_filter_mark');
  await sql`create function ${mark}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.seq >= old.seq and new.id = old.id then
        return new;
      end if;
      raise exception using errcode = 'insufficient_privilege', message = ${sql.lit(MARK_REFUSAL)};
    end $$`.execute(db);
  for (const table of ['audit_by_actor', 'audit_by_subject']) {
    await sql`create trigger ${sql.id(`${table}_kept`)} before update or delete on ${name(schema, table)}
      for each row execute function ${rows}()`.execute(db);
    await sql`create trigger ${sql.id(`${table}_no_truncate`)} before truncate on ${name(schema, table)}
      for each statement execute function ${rows}()`.execute(db);
  }
  const markTable = name(schema, 'audit_filter_mark');
  await sql`create trigger audit_filter_mark_forward before update or delete on ${markTable}
    for each row execute function ${mark}()`.execute(db);
  await sql`create trigger audit_filter_mark_no_truncate before truncate on ${markTable}
    for each statement execute function ${mark}()`.execute(db);
}

/**
 * Audit queries by actor and by subject read two tables the store fills in batches (see
 * repos/audit-filter-index.ts) instead of two indexes on audit_events that every append wrote into,
 * one page per agent per commit. Retention may remove a row once its event is gone; nothing else can.
 */
export function auditFilterIndexMigration(dialect: Dialect, schema?: string): Migration {
  return {
    async up(db) {
      await createTables(db, dialect);
      await fill(db);
      await db.schema.dropIndex('audit_actor').execute();
      await db.schema.dropIndex('audit_subject').execute();
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db, schema);
    },
  };
}
