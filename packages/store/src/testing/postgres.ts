import { randomBytes } from 'node:crypto';
import type { Clock } from 'gatehouse-hitl-core';
import pg from 'pg';
import {
  createPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from '../postgres/postgres-store.js';
import { servePglite } from './pglite-server.js';

/** Choices for a test database; the defaults suit most tests. */
export interface StartTestPostgresOptions {
  /** The store's clock. @default the system clock */
  clock?: Clock;
  /** Take `now` from `clock` rather than the database. @default true when a clock is given */
  timeFromClock?: boolean;
  /**
   * A Postgres server to use; null forces the in-process one.
   * @default process.env.GATEHOUSE_TEST_DATABASE_URL, else an in-process Postgres
   */
  url?: string | null;
  /** Hears of every statement the first store runs (statement budgets). */
  onStatement?: PostgresStoreOptions['onStatement'];
}

/** A fresh, migrated schema on a real or in-process Postgres, with a store on it. */
export interface TestPostgres {
  /** Where the server listens; tables live in `schema`, so pass it to stores you open yourself. */
  connectionString: string;
  schema: string;
  /** `server` when GATEHOUSE_TEST_DATABASE_URL (or `url`) named one, else `in-process` (PGlite). */
  kind: 'server' | 'in-process';
  store: PostgresStore;
  /** Another store on the same schema, like a second node; closed by `stop()`. */
  openStore(options?: {
    clock?: Clock;
    onStatement?: PostgresStoreOptions['onStatement'];
  }): Promise<PostgresStore>;
  /**
   * Ends every connection whose `application_name` starts with `prefix` (`pg_terminate_backend` on a
   * server, a dropped socket in-process), as a crash or a network cut would; returns how many.
   */
  terminateConnections(prefix: string): Promise<number>;
  /** Closes every store, drops the schema, and lets the in-process Postgres go when unused. */
  stop(): Promise<void>;
  /** Same as `stop()`. */
  close(): Promise<void>;
}

interface InProcessPostgres {
  connectionString: string;
  terminate(prefix: string): number;
  stop(): Promise<void>;
}

const IDLE_STOP_MS = 1000;
let inProcess: Promise<InProcessPostgres> | null = null;
let users = 0;
let idleTimer: NodeJS.Timeout | null = null;

// PGlite takes seconds to boot, so one instance serves every test of a process, a schema each.
async function bootInProcess(): Promise<InProcessPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  const server = await servePglite(db);
  return {
    connectionString: `postgres://postgres@127.0.0.1:${server.port}/postgres`,
    terminate: (prefix) => server.terminate(prefix),
    async stop() {
      await server.close();
      await db.close();
    },
  };
}

function acquireInProcess(): Promise<InProcessPostgres> {
  users += 1;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  inProcess ??= bootInProcess().catch((error: unknown) => {
    inProcess = null;
    throw error;
  });
  return inProcess;
}

function releaseInProcess(): void {
  users -= 1;
  if (users > 0 || inProcess === null) return;
  idleTimer = setTimeout(() => {
    const current = inProcess;
    inProcess = null;
    idleTimer = null;
    void current?.then((instance) => instance.stop()).catch(() => undefined);
  }, IDLE_STOP_MS);
}

async function adminQuery(
  connectionString: string,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function terminateOnServer(connectionString: string, prefix: string): Promise<number> {
  const { rows } = await adminQuery(
    connectionString,
    `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where left(application_name, length($1)) = $1 and pid <> pg_backend_pid()`,
    [prefix],
  );
  return rows[0].n;
}

/**
 * Starts Postgres for a test: the server named by GATEHOUSE_TEST_DATABASE_URL when set, else an
 * in-process PGlite served on 127.0.0.1 (random port) and reached through the same `pg` driver.
 */
export async function startTestPostgres(options: StartTestPostgresOptions = {}): Promise<TestPostgres> {
  const url = options.url === undefined ? process.env.GATEHOUSE_TEST_DATABASE_URL : options.url;
  const kind = url ? 'server' : 'in-process';
  const inProcessServer = url ? null : await acquireInProcess();
  const connectionString = inProcessServer?.connectionString ?? (url as string);
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  const timeFromClock = options.timeFromClock ?? options.clock !== undefined;
  const stores: PostgresStore[] = [];
  const openStore: TestPostgres['openStore'] = async (extra = {}) => {
    const clock = extra.clock ?? options.clock ?? { now: () => Date.now() };
    const store = await createPostgresStore({
      connectionString,
      schema,
      clock,
      timeFromClock,
      poolSize: 4,
      ...(extra.onStatement === undefined ? {} : { onStatement: extra.onStatement }),
    });
    stores.push(store);
    return store;
  };
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await Promise.all(stores.map((store) => store.close()));
      await adminQuery(connectionString, `drop schema if exists "${schema}" cascade`).catch(() => undefined);
      if (kind === 'in-process') releaseInProcess();
    })();
    return stopping;
  };
  const terminateConnections = async (prefix: string): Promise<number> =>
    inProcessServer === null
      ? terminateOnServer(connectionString, prefix)
      : inProcessServer.terminate(prefix);
  try {
    const store = await openStore(
      options.onStatement === undefined ? {} : { onStatement: options.onStatement },
    );
    return { connectionString, schema, kind, store, openStore, terminateConnections, stop, close: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
