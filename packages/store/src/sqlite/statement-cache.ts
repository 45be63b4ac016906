import type BetterSqlite3 from 'better-sqlite3';
import type { QueryResult, SqliteDatabase, SqliteStatement } from 'kysely';

/** A SQLite handle for Kysely plus a way to run cached statements without it. */
export interface CachedSqliteDatabase extends SqliteDatabase {
  /** Runs `sqlText` on this connection at once, with the result shape Kysely's SQLite driver gives. */
  execute(sqlText: string, parameters: readonly unknown[]): QueryResult<unknown>;
}

/**
 * Hands Kysely the same prepared statement for the same SQL text: preparing is a large share of
 * a small query's cost, and the store runs the same few statements over and over.
 */
export function withStatementCache(db: BetterSqlite3.Database, capacity = 256): CachedSqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  function prepare(sqlText: string): BetterSqlite3.Statement {
    const cached = cache.get(sqlText);
    if (cached !== undefined) return cached;
    const statement = db.prepare(sqlText);
    if (cache.size >= capacity) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(sqlText, statement);
    return statement;
  }
  return {
    close: () => db.close(),
    prepare: (sqlText) => prepare(sqlText) as unknown as SqliteStatement,
    execute(sqlText, parameters) {
      const statement = prepare(sqlText);
      if (statement.reader) return { rows: statement.all(...parameters) };
      const { changes, lastInsertRowid } = statement.run(...parameters);
      return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
    },
  };
}
