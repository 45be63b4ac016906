import { type RawBuilder, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';

type MigrationDb = Parameters<Migration['up']>[0];

async function createJournal(db: MigrationDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('journal_entries')
    .$call((t) =>
      dialect === 'postgres'
        ? t.addColumn('seq', 'bigserial', (c) => c.primaryKey())
        : t.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement()),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('journal_entries_run')
    .on('journal_entries')
    .columns(['run_id', 'seq'])
    .execute();
}

function name(schema: string | undefined, object: string): RawBuilder<unknown> {
  return schema === undefined ? sql.id(object) : sql.id(schema, object);
}

async function createSearchIndex(
  db: MigrationDb,
  dialect: Dialect,
  schema: string | undefined,
): Promise<void> {
  // One row per indexed run: its state, and the generation whose chunks are searched.
  await db.schema
    .createTable('search_index_state')
    .addColumn('run_id', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('generation', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('commit_id', 'text')
    .addColumn('documents', 'integer', (c) => c.notNull())
    .addColumn('chunks', 'integer', (c) => c.notNull())
    .addColumn('semantic', 'integer', (c) => c.notNull())
    .addColumn('indexed_at', 'bigint')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('search_chunks')
    .$call((t) =>
      dialect === 'postgres'
        ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
        : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    )
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('line_start', 'integer', (c) => c.notNull())
    .addColumn('line_end', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('embedding', dialect === 'postgres' ? 'bytea' : 'blob')
    .execute();
  await db.schema.createIndex('search_chunks_run').on('search_chunks').column('run_id').execute();
  if (dialect === 'postgres') {
    await sql`alter table ${name(schema, 'search_chunks')} add column tsv tsvector
      generated always as (to_tsvector('english'::regconfig, content)) stored`.execute(db);
    await sql`create index search_chunks_tsv on ${name(schema, 'search_chunks')} using gin (tsv)`.execute(db);
    return;
  }
  // An external-content FTS5 table kept in step with search_chunks by triggers.
  await sql`create virtual table search_chunks_fts using fts5(
    content, content='search_chunks', content_rowid='id', tokenize='porter unicode61')`.execute(db);
  await sql`create trigger search_chunks_fts_insert after insert on search_chunks begin
    insert into search_chunks_fts(rowid, content) values (new.id, new.content); end`.execute(db);
  await sql`create trigger search_chunks_fts_delete after delete on search_chunks begin
    insert into search_chunks_fts(search_chunks_fts, rowid, content) values ('delete', old.id, old.content); end`.execute(
    db,
  );
}

/** The run journal, and each run's workspace search index (full-text on the database's own index). */
export function workspaceSearchMigration(dialect: Dialect, schema?: string): Migration {
  return {
    async up(db) {
      await createJournal(db, dialect);
      await createSearchIndex(db, dialect, schema);
    },
  };
}
