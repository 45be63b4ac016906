import { type AuditEvent, GatehouseError } from 'gatehouse-hitl-core';
import { type Kysely, sql } from 'kysely';
import { verifyAuditChain } from './audit/verify.js';
import { type BatchDialect, executeBatch } from './batch.js';
import { type Database, type DirectExecute, newTxMemo, type TxContext } from './db/schema.js';
import { translateReadError, unavailable } from './db-errors.js';
import { createGroupCommit } from './group-commit.js';
import * as audit from './repos/audit.js';
import { fillFilterTablesIfDue } from './repos/audit-filter-index.js';
import * as stream from './repos/stream.js';
import { createStoreTx } from './tx.js';
import type { AuditCheckpoint, AuditVerification, AuditVerifyOptions, Store } from './types.js';

const AUDIT_BATCH = 500;

/** What an engine provides; everything else is the shared query layer. */
export interface StoreAdapter extends BatchDialect {
  /** Runs `fn` on the one connection a write batch uses. */
  withWriteConnection<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /** Runs a read on a connection of its own. */
  withReadConnection<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /** `now` for reads. */
  readNow(): number;
  databaseNow(): Promise<number>;
  /** Releases connections, pools and locks. */
  destroy(): Promise<void>;
  /** @default 256 */
  maxBatch?: number;
  /** Run SQL on the write and read connections without Kysely (SQLite's synchronous driver). */
  direct?: { write: DirectExecute; read: DirectExecute };
  /** No other process writes the database, so what a commit wrote is still there for the next batch. */
  soleWriter?: boolean;
}

type Read = <T>(fn: (ctx: TxContext) => Promise<T>) => Promise<T>;

function createReader(adapter: StoreAdapter, statements: Map<string, string>, isClosed: () => boolean): Read {
  return async (fn) => {
    if (isClosed()) throw new GatehouseError('SERVICE_UNAVAILABLE', 'the store is closed');
    try {
      return await adapter.withReadConnection((db) =>
        fn({
          db,
          now: adapter.readNow(),
          dialect: adapter.dialect,
          statements,
          memo: newTxMemo(),
          execute: adapter.direct?.read,
        }),
      );
    } catch (error) {
      throw translateReadError(error);
    }
  };
}

type AuditReader = Pick<Store, 'streamAudit' | 'getAuditCheckpoint' | 'verifyAuditChain'>;

function createAuditReader(read: Read): AuditReader {
  async function* streamAudit(fromSeq = 0): AsyncGenerator<AuditEvent> {
    let next = fromSeq;
    for (;;) {
      const batch = await read((ctx) => audit.auditBatch(ctx, next, AUDIT_BATCH));
      yield* batch;
      const last = batch[batch.length - 1];
      if (last === undefined || batch.length < AUDIT_BATCH) return;
      next = last.seq + 1;
    }
  }
  const getAuditCheckpoint = (): Promise<AuditCheckpoint | null> => read(audit.getAuditCheckpoint);
  async function verifyStoredChain(options: AuditVerifyOptions = {}): Promise<AuditVerification> {
    const start = await getAuditCheckpoint();
    const result = await verifyAuditChain(streamAudit(), { ...options, start });
    if (result.ok) return result;
    // Retention may have cut the chain while we read it: check once more from the new start.
    const latest = await getAuditCheckpoint();
    return latest?.seq === start?.seq
      ? result
      : verifyAuditChain(streamAudit(), { ...options, start: latest });
  }
  return { streamAudit, getAuditCheckpoint, verifyAuditChain: verifyStoredChain };
}

/** Builds a Store from an engine adapter: group commit, reads, audit and stream queries. */
export function createKyselyStore<D extends Store['dialect']>(
  adapter: StoreAdapter & { dialect: D },
): Store & { dialect: D } {
  const statements = new Map<string, string>();
  let credentialsVersion = 0;
  const shared = {
    statements,
    execute: adapter.direct?.write,
    onCredentialsChanged: () => {
      credentialsVersion += 1;
    },
    carried: adapter.soleWriter === true ? { auditHead: null, webhookEvents: null } : undefined,
    beforeCommit: fillFilterTablesIfDue,
  };
  const commits = createGroupCommit({
    execute: (units) =>
      adapter
        .withWriteConnection((db) => executeBatch(db, units, adapter, shared))
        .catch((error: unknown) => {
          throw unavailable(error);
        }),
    ...(adapter.maxBatch === undefined ? {} : { maxBatch: adapter.maxBatch }),
  });
  let closing: Promise<void> | null = null;
  const read = createReader(adapter, statements, () => closing !== null);
  return {
    dialect: adapter.dialect,
    credentialsVersion: () => credentialsVersion,
    transaction: (work, options) =>
      commits.enqueue((ctx) => work(createStoreTx(ctx, { readOnly: false })), options),
    read: (work) => read((ctx) => work(createStoreTx(ctx, { readOnly: true }))),
    queryAudit: (filter) => read((ctx) => audit.queryAudit(ctx, filter)),
    ...createAuditReader(read),
    truncateAudit: ({ before, sign }) => commits.enqueue((ctx) => audit.truncateAudit(ctx, before, sign)),
    listStreamEvents: (options) => read((ctx) => stream.listStreamEvents(ctx, options)),
    latestStreamSeq: () => read(stream.latestStreamSeq),
    databaseNow: () =>
      adapter.databaseNow().catch((error: unknown) => Promise.reject(translateReadError(error))),
    ping: () =>
      read(({ db }) => sql`select 1`.execute(db)).then(
        () => true,
        () => false,
      ),
    close() {
      closing ??= commits.close().then(() => adapter.destroy());
      return closing;
    },
  };
}
