import type { Clock } from 'gatehouse-hitl-core';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { RejectNulPlugin } from '../db/reject-nul.js';
import type { Database } from '../db/schema.js';
import { unavailable } from '../db-errors.js';
import { createKyselyStore, type StoreAdapter } from '../kysely-store.js';
import { runMigrations } from '../migrations/index.js';
import type { ExecutedStatement, Store } from '../types.js';

/** How to reach Postgres and where time comes from. */
export interface PostgresStoreOptions {
  /** `postgres://…`; ignored when `pool` is given. */
  connectionString?: string;
  /** Used only where `timeFromClock` says so and for `now` in reads; the database decides deadlines. */
  clock: Clock;
  /** A pool of your own; the store then leaves it open on close. */
  pool?: pg.Pool;
  /** Keep every table in this schema (created when missing) instead of the search path's. */
  schema?: string;
  /** Connections of the pool the store creates. @default 10 */
  poolSize?: number;
  /** Tests only: take `now` from `clock` instead of the database, so a fake clock moves deadlines. @default false */
  timeFromClock?: boolean;
  /** Most units of work in one commit. @default 256 */
  maxBatch?: number;
  /** Hears of every statement run on the pool the store creates, for statement budgets; nothing is traced without it. */
  onStatement?: (statement: ExecutedStatement) => void;
}

/** A store on Postgres, safe to share between several Gatehouse nodes. */
export interface PostgresStore extends Store {
  readonly dialect: 'postgres';
  readonly schema: string | null;
  /** Migrations this start-up applied (empty when the schema was already current). */
  readonly appliedMigrations: readonly string[];
}

// Advisory lock keys (first half); the second half is the schema's hash, so schemas never contend.
const MIGRATION_LOCK = 0x6761_7465;
const WRITE_LOCK = 0x6761_7466;

const INT8_OID = 20;

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** A client class whose promise-returning queries report to `trace`. */
function tracingClient(trace: (statement: ExecutedStatement) => void): typeof pg.Client {
  return class TracingClient extends pg.Client {
    override query(...args: unknown[]): never {
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: unknown })?.text);
      if (result instanceof Promise)
        result.then(
          (done: pg.QueryResult) => {
            const rows = done.rowCount ?? 0;
            const writes = WRITES.has(done.command);
            trace({
              sql: text,
              rowsWritten: writes ? rows : 0,
              rowsRead: done.command === 'SELECT' ? rows : 0,
            });
          },
          () => trace({ sql: text, rowsWritten: 0, rowsRead: 0 }),
        );
      return result as never;
    }
  };
}

function createPool(options: PostgresStoreOptions): pg.Pool {
  const pool = new pg.Pool({
    ...(options.onStatement === undefined ? {} : { Client: tracingClient(options.onStatement) }),
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    // Epoch ms and seqs are int8: parse them as numbers (exact below 2^53) for this pool only.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // A connection that dies (idle, or held between statements) must not crash the process: the
  // next query on it fails instead, and the store answers SERVICE_UNAVAILABLE.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

const epochMs = sql<number>`floor(extract(epoch from now()) * 1000)::bigint`;
// Read after the write lock is held (a select list runs left to right): `now()` is the start of the
// transaction, which may be long before a busy cluster hands over the lock, and time would then
// run backwards in commit order.
const lockedEpochMs = sql<number>`floor(extract(epoch from clock_timestamp()) * 1000)::bigint`;

function schemaKey(schema: string | undefined) {
  return schema === undefined ? sql`hashtext(current_schema())` : sql`hashtext(${schema})`;
}

/** Migrates under a session advisory lock, so nodes starting together migrate once. */
async function migrate(db: Kysely<Database>, schema: string | undefined): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK}, ${schemaKey(schema)})`.execute(conn);
    try {
      if (schema === undefined) return await runMigrations(conn, 'postgres');
      await conn.schema.createSchema(schema).ifNotExists().execute();
      return await runMigrations(conn.withSchema(schema), 'postgres', schema);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK}, ${schemaKey(schema)})`.execute(conn);
    }
  });
}

async function databaseNow(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ now: number }>`select ${epochMs} as now`.execute(db);
  return Number(rows[0]?.now);
}

function postgresAdapter(
  base: Kysely<Database>,
  options: PostgresStoreOptions,
): StoreAdapter & { dialect: 'postgres' } {
  const { schema, clock } = options;
  const db = schema === undefined ? base : base.withSchema(schema);
  const useClock = options.timeFromClock === true;
  return {
    dialect: 'postgres',
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
    async begin(conn) {
      await sql`begin`.execute(conn);
      const lock = sql`pg_advisory_xact_lock(${WRITE_LOCK}, ${schemaKey(schema)})`;
      const { rows } = await sql<{ now: number }>`select ${lock}, ${lockedEpochMs} as now`.execute(conn);
      const now = useClock ? clock.now() : Number(rows[0]?.now);
      return () => now;
    },
    withWriteConnection: (fn) => db.connection().execute(fn),
    withReadConnection: (fn) => db.connection().execute(fn),
    readNow: () => clock.now(),
    databaseNow: () => (useClock ? Promise.resolve(clock.now()) : databaseNow(db)),
    async destroy() {
      if (!options.pool) await base.destroy();
    },
  };
}

/**
 * Opens (and migrates) a Postgres store. Write batches take one advisory lock for the whole
 * transaction: the audit chain never forks and stream seqs commit in order across nodes.
 * @example const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL, clock: { now: Date.now } });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const pool = options.pool ?? createPool(options);
  const base = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new RejectNulPlugin()],
  });
  let appliedMigrations: string[];
  try {
    appliedMigrations = await migrate(base, options.schema);
  } catch (error) {
    if (!options.pool) await base.destroy();
    throw unavailable(error, 'Postgres');
  }
  const store = createKyselyStore(postgresAdapter(base, options));
  return { ...store, schema: options.schema ?? null, appliedMigrations };
}
