export { auditHash, GENESIS_HASH, newAuditEventId } from './audit/hash.js';
export type { ChainStart } from './audit/verify.js';
export { verifyAuditChain, verifyAuditExport } from './audit/verify.js';
export type { MigrateOptions, MigrateResult } from './migrate.js';
export { migrateToLatest } from './migrate.js';
export type { PostgresStore, PostgresStoreOptions } from './postgres/postgres-store.js';
export { createPostgresStore } from './postgres/postgres-store.js';
export type { SqlitePragmas, SqliteStore, SqliteStoreOptions } from './sqlite/sqlite-store.js';
export { createSqliteStore } from './sqlite/sqlite-store.js';
export type { StartTestPostgresOptions, TestPostgres } from './testing/postgres.js';
export { startTestPostgres } from './testing/postgres.js';
export type {
  AuditCheckpoint,
  AuditFailure,
  AuditFilter,
  AuditInput,
  AuditVerification,
  GateFilter,
  IdempotencyRecord,
  Page,
  PolicyVersion,
  RememberedRule,
  RunFilter,
  SigningKeyRecord,
  Store,
  StoreTx,
  StreamEvent,
  TokenRecord,
  UserRecord,
} from './types.js';
