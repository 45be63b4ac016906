export {
  asSignedCheckpoint,
  auditKeyId,
  CHECKPOINT_KIND,
  checkpointStatement,
  isCheckpointSigned,
  startStatement,
} from './audit/checkpoint.js';
export type { TextSource } from './audit/export.js';
export { readAuditHeads, verifyAuditExport } from './audit/export.js';
export { auditHash, GENESIS_HASH, newAuditEventId } from './audit/hash.js';
export type { ChainCheckOptions, ChainStart } from './audit/verify.js';
export { verifyAuditChain } from './audit/verify.js';
export type { MigrateOptions, MigrateResult } from './migrate.js';
export { migrateToLatest } from './migrate.js';
export type { PostgresStore, PostgresStoreOptions } from './postgres/postgres-store.js';
export { createPostgresStore } from './postgres/postgres-store.js';
export { LEASE_EXPIRED } from './repos/webhook-deliveries.js';
export type { SqlitePragmas, SqliteStore, SqliteStoreOptions } from './sqlite/sqlite-store.js';
export { createSqliteStore } from './sqlite/sqlite-store.js';
export type {
  AgentsRepo,
  AuditCheckpoint,
  AuditFailure,
  AuditFilter,
  AuditHead,
  AuditInput,
  AuditRepo,
  AuditVerification,
  AuditVerifyOptions,
  CheckpointSource,
  ClaimedWebhookDelivery,
  CredentialRecord,
  FalsePositiveRecord,
  GateFilter,
  GatesRepo,
  IdempotencyRecord,
  IdempotencyRepo,
  JournalEntryRecord,
  JournalFilter,
  JournalRepo,
  OutboxEvent,
  Page,
  PoliciesRepo,
  PolicyVersion,
  RecoveriesRepo,
  RecoveryAttemptRecord,
  RecoveryRecord,
  RememberedRule,
  ReportsRepo,
  ReviewCommentRecord,
  ReviewRecord,
  ReviewsRepo,
  ReviewVerdictRecord,
  RulesRepo,
  RunFilter,
  RunsRepo,
  SearchChunkHit,
  SearchChunkInput,
  SearchChunkVector,
  SearchIndexRecord,
  SearchIndexRepo,
  SearchIndexStateName,
  SignedCheckpoint,
  SigningKeyRecord,
  StartSigner,
  Store,
  StoreTx,
  StreamEvent,
  StreamEventsRepo,
  TokenRecord,
  TokensRepo,
  TxClock,
  UserRecord,
  UsersRepo,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveriesRepo,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookRecord,
  WebhooksRepo,
} from './types.js';
