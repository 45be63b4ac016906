import type { AuditEvent, GateStatus, RiskLevel, Role, RunStatus, StandingScope } from 'gatehouse-hitl-core';
import type { StreamEventName } from 'gatehouse-hitl-protocol';
import type {
  AuditCheckpoint,
  AuditFilter,
  AuditVerification,
  AuditVerifyOptions,
  StartSigner,
} from './audit-types.js';
import type { GateViewsRepo } from './gate-view-types.js';
import type { NotificationsRepo } from './notification-types.js';
import type { RecoveriesRepo } from './recovery-types.js';
import type {
  AgentsRepo,
  AuditRepo,
  GatesRepo,
  IdempotencyRepo,
  PoliciesRepo,
  ReportsRepo,
  RulesRepo,
  RunsRepo,
  StreamEventsRepo,
  TokensRepo,
  TxClock,
  UsersRepo,
  WebhookDeliveriesRepo,
  WebhooksRepo,
} from './repositories.js';
import type { ReviewsRepo } from './review-types.js';
import type { JournalRepo, SearchIndexRepo } from './search-types.js';
import type { SlackRepo } from './slack-types.js';
import type { SsoIdentitiesRepo } from './sso-types.js';
import type { TrustRepo } from './trust-types.js';
import type { WhitelistsRepo } from './whitelist-types.js';

// Audit and webhook records and the repositories' roles have files of their own; everything that
// imports the port finds them here.
export type {
  AuditCheckpoint,
  AuditFailure,
  AuditFilter,
  AuditHead,
  AuditInput,
  AuditVerification,
  AuditVerifyOptions,
  CheckpointSource,
  SignedCheckpoint,
  StartSigner,
} from './audit-types.js';
export type {
  ClaimedNotification,
  NotificationChannelName,
  NotificationFilter,
  NotificationOutcome,
  NotificationPreferenceRecord,
  NotificationRecord,
  NotificationRuleRecord,
  NotificationStatus,
  NotificationsRepo,
  NotificationTriggerRecord,
  WarningDueGate,
} from './notification-types.js';
export type {
  FalsePositiveRecord,
  RecoveriesRepo,
  RecoveryAttemptRecord,
  RecoveryRecord,
} from './recovery-types.js';
export type {
  AgentsRepo,
  AuditRepo,
  GatesRepo,
  IdempotencyRepo,
  PoliciesRepo,
  ReportsRepo,
  RulesRepo,
  RunsRepo,
  StreamEventsRepo,
  TokensRepo,
  TxClock,
  UsersRepo,
  WebhookDeliveriesRepo,
  WebhooksRepo,
} from './repositories.js';
export type {
  ReviewCommentRecord,
  ReviewRecord,
  ReviewsRepo,
  ReviewVerdictRecord,
} from './review-types.js';
export type {
  JournalEntryRecord,
  JournalFilter,
  JournalRepo,
  SearchChunkHit,
  SearchChunkInput,
  SearchChunkVector,
  SearchIndexRecord,
  SearchIndexRepo,
  SearchIndexStateName,
} from './search-types.js';
export type { SlackRepo, SlackUserLink } from './slack-types.js';
export type { SsoIdentitiesRepo, SsoIdentity } from './sso-types.js';
export type {
  ClaimedWebhookDelivery,
  OutboxEvent,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookRecord,
} from './webhook-types.js';
export type {
  DetectionRecord,
  PatternCounts,
  WhitelistRecord,
  WhitelistsRepo,
} from './whitelist-types.js';

/** A page of results with an opaque cursor for the next one. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A person who can sign in and decide gates. */
export interface UserRecord {
  id: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  disabled: boolean;
  createdAt: number;
}

/** A stored credential: agent API token or a person's session; only the hash is kept. */
export interface TokenRecord {
  tokenHash: string;
  /**
   * `key_challenge`: a one-time nonce a person signs to prove they hold a key they register.
   * `sso_state`: the state of a sign-in started at an OpenID provider, used once by its callback.
   */
  kind: 'agent' | 'session' | 'login_link' | 'key_challenge' | 'sso_state';
  subjectId: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** A token with the person its session belongs to (null for agent tokens and missing people). */
export interface CredentialRecord {
  token: TokenRecord;
  user: UserRecord | null;
}

/** A public key a person signs decisions with. */
export interface SigningKeyRecord {
  id: string;
  userId: string;
  /** Ed25519 public key, base64 (raw 32 bytes) or PEM. */
  publicKey: string;
  /** SHA-256 of the raw key bytes, hex; unique across everyone, so a key belongs to one person. */
  fingerprint: string;
  /** What the person calls it ("Work laptop"); null until they name it. */
  name: string | null;
  createdAt: number;
  revokedAt: number | null;
  /** When a decision signed with it last verified; null until then. */
  lastUsedAt: number | null;
}

/** An "approve always" answer remembered for a run, an agent or everyone. */
export interface RememberedRule {
  id: string;
  scope: 'run' | 'agent' | 'global';
  runId: string | null;
  agentId: string | null;
  tool: string;
  /** Hash of the arguments when the rule is bound to exact arguments; null = any arguments. */
  argsHash: string | null;
  /** What it covers within its tool; null for a rule stored before scopes, read as the whole tool. */
  match: StandingScope | null;
  createdBy: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  revokedBy: string | null;
  sourceGateId: string | null;
}

/** One saved version of the policy; the newest is active. */
export interface PolicyVersion {
  version: number;
  /** The policy document as written (YAML or JSON). */
  source: string;
  format: 'yaml' | 'json';
  createdBy: string;
  createdAt: number;
}

/** The first answer to a request key, replayed to retries. */
export interface IdempotencyRecord {
  scope: string;
  key: string;
  requestHash: string;
  response: unknown;
  createdAt: number;
}

/** An event delivered to streams (per run and per inbox), ordered by `seq`. */
export interface StreamEvent {
  seq: number;
  type: StreamEventName;
  runId: string | null;
  agentId: string | null;
  gateId: string | null;
  data: Record<string, unknown>;
  at: number;
}

/** Gate query; every given field must match (`assignee`: one of the gate's assignees). */
export interface GateFilter {
  status?: GateStatus | GateStatus[];
  type?: string;
  risk?: RiskLevel;
  agentId?: string;
  runId?: string;
  assignee?: string;
  limit?: number;
  cursor?: string;
}

/** Run query; every given field must match. */
export interface RunFilter {
  agentId?: string;
  status?: RunStatus;
  limit?: number;
  cursor?: string;
}

/**
 * Everything done inside one transaction: every repository's role at once. Conditional updates
 * return false when the row changed underneath (version or status mismatch): the caller lost the
 * race. Inserts of an id (or name, or key) that already exists throw `GatehouseError('CONFLICT')`.
 */
export type StoreTx = TxClock &
  GateViewsRepo &
  AgentsRepo &
  UsersRepo &
  TokensRepo &
  RunsRepo &
  GatesRepo &
  IdempotencyRepo &
  RulesRepo &
  PoliciesRepo &
  ReportsRepo &
  AuditRepo &
  StreamEventsRepo &
  WebhooksRepo &
  WebhookDeliveriesRepo &
  ReviewsRepo &
  JournalRepo &
  SearchIndexRepo &
  RecoveriesRepo &
  WhitelistsRepo &
  SlackRepo &
  SsoIdentitiesRepo &
  NotificationsRepo &
  TrustRepo;

/** A statement a store ran, as its `onStatement` option reports it (statement budgets in tests and benchmarks). */
export interface ExecutedStatement {
  sql: string;
  /** Rows the statement inserted, updated or deleted. */
  rowsWritten: number;
  /** Rows a query (not a write's `returning`) handed back. */
  rowsRead: number;
}

/** How a unit of work is run. */
export interface UnitOptions {
  /**
   * `work` keeps no state of its own between runs (or resets it when it starts): a batch of such
   * units runs without a savepoint per unit, and a failure rolls the batch back and runs the others again.
   * @default false
   */
  replayable?: boolean;
}

/** Gatehouse's storage port: SQLite and Postgres implement it and pass one contract suite. */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Goes up after every commit through this store that wrote tokens or people, before its caller
   * hears back: a credential cached while it stayed the same is current as far as this store knows
   * (other nodes' changes are not counted).
   */
  credentialsVersion(): number;
  /**
   * Runs `work` in one transaction (concurrent calls may share a commit: group commit).
   * A throw rolls back only this unit of work and rejects with that error; the promise
   * resolves only once the commit is durable. `work` must touch nothing but `tx` and must
   * not call `transaction()` again (that would wait for itself, so it throws).
   */
  transaction<T>(work: (tx: StoreTx) => Promise<T>, options?: UnitOptions): Promise<T>;
  /** A read-only view outside any write transaction; write methods throw. */
  read<T>(work: (tx: StoreTx) => Promise<T>): Promise<T>;

  queryAudit(filter: AuditFilter): Promise<Page<AuditEvent>>;
  /** Every audit event in order, in batches, for export and verification. */
  streamAudit(fromSeq?: number): AsyncIterable<AuditEvent>;
  getAuditCheckpoint(): Promise<AuditCheckpoint | null>;
  /**
   * Checks the whole stored chain, starting from the checkpoint if there is one; with a public key
   * also every signed checkpoint in it and in `heads` (published outside the database).
   */
  verifyAuditChain(options?: AuditVerifyOptions): Promise<AuditVerification>;
  /**
   * Removes the oldest events, up to (not including) the first one at or after `before`: only
   * ever a prefix of the chain, never holes. Records a checkpoint (signed by `sign`, given the
   * start statement); null when nothing was removed. The only path the append-only triggers allow.
   */
  truncateAudit(options: { before: number; sign?: StartSigner }): Promise<AuditCheckpoint | null>;

  /** Events with `seq > afterSeq` in order (at most `limit`, default 100). */
  listStreamEvents(options: { afterSeq: number; runId?: string; limit?: number }): Promise<StreamEvent[]>;
  /** The highest stream seq so far, 0 when there is none. */
  latestStreamSeq(): Promise<number>;

  /** The database's idea of now, in ms: it decides deadlines. */
  databaseNow(): Promise<number>;
  /** Cheap liveness probe for /readyz. */
  ping(): Promise<boolean>;
  /** Waits for queued transactions, then releases every connection and lock; safe to call twice. */
  close(): Promise<void>;
}
