import type { Clock } from 'gatehouse-hitl-core';
import type pg from 'pg';
import { createPostgresStore } from './postgres/postgres-store.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';

/** Where to migrate: a SQLite file or a Postgres database (optionally one schema of it). */
export type MigrateOptions =
  | { file: string }
  | { connectionString: string; schema?: string }
  | { pool: pg.Pool; schema?: string };

/** What a migration run did. */
export interface MigrateResult {
  dialect: 'sqlite' | 'postgres';
  /** Names of the migrations applied now; empty when the database was already current. */
  applied: readonly string[];
}

const systemClock: Clock = { now: () => Date.now() };

/**
 * Brings a database to the latest schema and closes it again (for `gatehouse migrate`);
 * stores also do this on their own at start-up.
 */
export async function migrateToLatest(options: MigrateOptions): Promise<MigrateResult> {
  const store =
    'file' in options
      ? await createSqliteStore({ file: options.file, clock: systemClock })
      : await createPostgresStore({ ...options, clock: systemClock });
  await store.close();
  return { dialect: store.dialect, applied: store.appliedMigrations };
}
