import type BetterSqlite3 from 'better-sqlite3';
import type { QueryResult, SqliteDatabase, SqliteStatement } from 'kysely';
import type { ExecutedStatement } from '../types.js';

/** A SQLite handle for Kysely plus a way to run cached statements without it. */
export interface CachedSqliteDatabase extends SqliteDatabase {
  /** Runs `sqlText` on this connection at once, with the result shape Kysely's SQLite driver gives. */
  execute(sqlText: string, parameters: readonly unknown[]): QueryResult<unknown>;
}

type Trace = (statement: ExecutedStatement) => void;

const WRITES = /^\s*(insert|update|delete)\b/i;

/** The same statement, reporting each run to `trace`. */
function traced(sqlText: string, statement: BetterSqlite3.Statement, trace: Trace): BetterSqlite3.Statement {
  return new Proxy(statement, {
    get(target, key) {
      if (key === 'all')
        return (...parameters: unknown[]) => {
          const rows = target.all(...parameters);
          // An insert, update or delete with `returning` is a reader: each row returned was written.
          const writes = WRITES.test(sqlText);
          trace({ sql: sqlText, rowsWritten: writes ? rows.length : 0, rowsRead: writes ? 0 : rows.length });
          return rows;
        };
      if (key === 'run')
        return (...parameters: unknown[]) => {
          const result = target.run(...parameters);
          trace({ sql: sqlText, rowsWritten: WRITES.test(sqlText) ? result.changes : 0, rowsRead: 0 });
          return result;
        };
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Hands Kysely the same prepared statement for the same SQL text: preparing is a large share of
 * a small query's cost, and the store runs the same few statements over and over. `trace` hears of
 * every statement run on this connection.
 */
export function withStatementCache(
  db: BetterSqlite3.Database,
  capacity = 256,
  trace?: Trace,
): CachedSqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  function prepare(sqlText: string): BetterSqlite3.Statement {
    const cached = cache.get(sqlText);
    if (cached !== undefined) return cached;
    const prepared = db.prepare(sqlText);
    const statement = trace === undefined ? prepared : traced(sqlText, prepared, trace);
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
