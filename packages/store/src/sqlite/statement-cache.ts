import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Hands Kysely the same prepared statement for the same SQL text: preparing is a large share of
 * a small query's cost, and the store runs the same few statements over and over.
 */
export function withStatementCache(db: BetterSqlite3.Database, capacity = 256): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sqlText: string): SqliteStatement {
      const cached = cache.get(sqlText);
      if (cached !== undefined) return cached;
      const statement = db.prepare(sqlText);
      if (cache.size >= capacity) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(sqlText, statement);
      return statement;
    },
  };
}
