import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Clock } from 'gatehouse-hitl-core';
import { Kysely, SqliteDialect } from 'kysely';
import { RejectNulPlugin } from '../db/reject-nul.js';
import type { Database, DirectExecute } from '../db/schema.js';
import { unavailable } from '../db-errors.js';
import { createKyselyStore, type StoreAdapter } from '../kysely-store.js';
import { runMigrations } from '../migrations/index.js';
import { runStatement } from '../prepared.js';
import { invalidField } from '../repos/rows.js';
import type { ExecutedStatement, Store } from '../types.js';
import { loadSqliteDriver } from './driver.js';
import { acquireLockFile, type LockFile } from './lock-file.js';
import { withStatementCache } from './statement-cache.js';
import { startWalCheckpointer, type WalCheckpointer, type WalCheckpointOptions } from './wal-checkpointer.js';

/** Which file to open and where time comes from. */
export interface SqliteStoreOptions {
  /** Path of the database file; created (with its folder) when missing. */
  file: string;
  /** Decides `now` on SQLite, which has no clock of its own worth trusting. */
  clock: Clock;
  /** How long a statement waits for a lock held by another connection. @default 5000 */
  busyTimeoutMs?: number;
  /** Most units of work in one commit. @default 256 */
  maxBatch?: number;
  /** Hears of every statement run, for statement budgets; nothing is traced without it. */
  onStatement?: (statement: ExecutedStatement) => void;
  /** When the checkpoint thread copies the WAL into the database file (see startWalCheckpointer). */
  walCheckpoint?: WalCheckpointOptions;
}

/** The durability settings a SQLite store runs with, as the connection reports them. */
export interface SqlitePragmas {
  journalMode: string;
  synchronous: 'off' | 'normal' | 'full' | 'extra';
  busyTimeoutMs: number;
  /** WAL pages after which the writer checkpoints in its own commit (see startWalCheckpointer). */
  walAutocheckpoint: number;
}

/** A store on one SQLite file: single writer, WAL, synchronous=FULL. */
export interface SqliteStore extends Store {
  readonly dialect: 'sqlite';
  readonly file: string;
  /** Migrations this start-up applied (empty when the file was already current). */
  readonly appliedMigrations: readonly string[];
  pragmas(): SqlitePragmas;
}

const SYNCHRONOUS = ['off', 'normal', 'full', 'extra'] as const;

function openWriter(file: string, busyTimeoutMs: number): BetterSqlite3.Database {
  const db = new (loadSqliteDriver().driver)(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}

function openReader(file: string, busyTimeoutMs: number): BetterSqlite3.Database {
  const db = new (loadSqliteDriver().driver)(file, { readonly: true, fileMustExist: true });
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}

function readPragmas(db: BetterSqlite3.Database): SqlitePragmas {
  const level = Number(db.pragma('synchronous', { simple: true }));
  return {
    journalMode: String(db.pragma('journal_mode', { simple: true })),
    synchronous: SYNCHRONOUS[level] ?? 'off',
    busyTimeoutMs: Number(db.pragma('busy_timeout', { simple: true })),
    walAutocheckpoint: Number(db.pragma('wal_autocheckpoint', { simple: true })),
  };
}

interface Handles {
  lock: LockFile;
  writerDb: BetterSqlite3.Database;
  writer: Kysely<Database>;
  reader: Kysely<Database>;
  direct: { write: DirectExecute; read: DirectExecute };
  applied: string[];
  checkpointer: WalCheckpointer;
}

async function open(
  file: string,
  busyTimeoutMs: number,
  options: Pick<SqliteStoreOptions, 'onStatement' | 'walCheckpoint'>,
): Promise<Handles> {
  const trace = options.onStatement;
  const lock = acquireLockFile(`${file}.lock`);
  const opened: Kysely<Database>[] = [];
  try {
    const writerDb = openWriter(file, busyTimeoutMs);
    const writerCache = withStatementCache(writerDb, undefined, trace);
    const writer = new Kysely<Database>({
      dialect: new SqliteDialect({ database: writerCache }),
      plugins: [new RejectNulPlugin()],
    });
    opened.push(writer);
    const applied = await runMigrations(writer, 'sqlite');
    // What the migrations wrote goes into the file now: a new store starts with an empty WAL, and
    // the checkpoint thread starts only once the store's own writes fill it.
    if (applied.length > 0) writerDb.pragma('wal_checkpoint(TRUNCATE)');
    const readerCache = withStatementCache(openReader(file, busyTimeoutMs), undefined, trace);
    const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: readerCache }) });
    // Each connection is used by one transaction (or read) at a time: Kysely holds it for the whole
    // batch or read, so statements sent past Kysely run inside that same transaction.
    const direct = { write: writerCache.execute, read: readerCache.execute };
    const walWriter = {
      setAutocheckpoint: (pages: number) => writerDb.pragma(`wal_autocheckpoint = ${pages}`),
      // Through Kysely's hold on the connection: never inside one of the writer's transactions.
      finishCheckpoint: () =>
        writer.connection().execute(async () => {
          writerDb.pragma('wal_checkpoint(PASSIVE)');
        }),
    };
    const checkpointer = startWalCheckpointer(file, walWriter, options.walCheckpoint);
    return { lock, writerDb, writer, reader, direct, applied, checkpointer };
  } catch (error) {
    await Promise.all(opened.map((db) => db.destroy()));
    lock.release();
    throw unavailable(error, `SQLite database ${file}`);
  }
}

function sqliteAdapter(handles: Handles, options: SqliteStoreOptions): StoreAdapter & { dialect: 'sqlite' } {
  const { writer, reader, lock, direct, checkpointer } = handles;
  const { clock } = options;
  return {
    dialect: 'sqlite',
    direct,
    // The lock file keeps every other store off this database while this one is open.
    soleWriter: true,
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
    async begin(db) {
      await runStatement(db, 'begin immediate', direct.write);
      return () => clock.now();
    },
    withWriteConnection: (fn) => writer.connection().execute(fn),
    // A read transaction gives every read one consistent snapshot of the WAL.
    withReadConnection: (fn) =>
      reader.connection().execute(async (db) => {
        await runStatement(db, 'begin', direct.read);
        try {
          return await fn(db);
        } finally {
          await runStatement(db, 'commit', direct.read);
        }
      }),
    readNow: () => clock.now(),
    databaseNow: async () => clock.now(),
    async destroy() {
      // The writer closes last, so its close checkpoints what is left and removes the WAL.
      await checkpointer.close();
      await reader.destroy();
      await writer.destroy();
      lock.release();
    },
  };
}

/**
 * Opens (and migrates) a SQLite store. Writes go through group commit in `BEGIN IMMEDIATE`
 * transactions on one connection; reads use a second, read-only connection.
 * @example const store = await createSqliteStore({ file: '.gatehouse/gatehouse.db', clock: { now: Date.now } });
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  if (options.file === '' || options.file === ':memory:') {
    throw invalidField('file', 'must be a path: the store needs a real file for its lock and its WAL');
  }
  const file = resolve(options.file);
  mkdirSync(dirname(file), { recursive: true });
  const handles = await open(file, options.busyTimeoutMs ?? 5000, options);
  const store = createKyselyStore(sqliteAdapter(handles, options));
  return { ...store, file, appliedMigrations: handles.applied, pragmas: () => readPragmas(handles.writerDb) };
}
