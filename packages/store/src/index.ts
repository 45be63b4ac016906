export { auditHash, GENESIS_HASH, newAuditEventId } from './audit/hash.js';
export type { ChainStart } from './audit/verify.js';
export { verifyAuditChain, verifyAuditExport } from './audit/verify.js';
export type { MigrateOptions, MigrateResult } from './migrate.js';
export { migrateToLatest } from './migrate.js';
export type { PostgresStore, PostgresStoreOptions } from './postgres/postgres-store.js';
export { createPostgresStore } from './postgres/postgres-store.js';
export { LEASE_EXPIRED } from './repos/webhook-deliveries.js';
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
  ClaimedWebhookDelivery,
  CredentialRecord,
  GateFilter,
  IdempotencyRecord,
  OutboxEvent,
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
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookRecord,
} from './types.js';
