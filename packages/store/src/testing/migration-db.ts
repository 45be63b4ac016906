import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, Dialect } from '../db/schema.js';
import { loadSqliteDriver } from '../sqlite/driver.js';
import { startTestPostgres } from './postgres.js';

/** An empty database for running single migrations against: a SQLite file, or a fresh Postgres schema. */
export interface MigrationTestDb {
  db: Kysely<Database>;
  /** The Postgres schema the tables go to (undefined on SQLite). */
  schema: string | undefined;
  close(): Promise<void>;
}

async function openSqlite(prefix: string): Promise<MigrationTestDb> {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-`));
  const BetterSqlite3 = loadSqliteDriver().driver;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new BetterSqlite3(join(dir, 'db.sqlite')) }),
  });
  return {
    db,
    schema: undefined,
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(prefix: string): Promise<MigrationTestDb> {
  const postgres = await startTestPostgres();
  const schema = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  const pool = new pg.Pool({ connectionString: postgres.connectionString, max: 1 });
  const base = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await sql`create schema ${sql.id(schema)}`.execute(base);
  return {
    db: base.withSchema(schema),
    schema,
    async close() {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(base);
      await base.destroy();
      await postgres.close();
    },
  };
}

/** Opens an empty database of `dialect`; `prefix` names its folder or schema. */
export function openMigrationTestDb(dialect: Dialect, prefix: string): Promise<MigrationTestDb> {
  return dialect === 'sqlite' ? openSqlite(prefix) : openPostgres(prefix);
}
