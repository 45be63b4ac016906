import type {
  Agent,
  AuditEvent,
  ConfidenceReport,
  Gate,
  GateStatus,
  Intervention,
  RiskLevel,
  Role,
  Run,
  RunStatus,
} from 'gatehouse-hitl-core';
import type {
  AuditCheckpoint,
  AuditFilter,
  AuditHead,
  AuditInput,
  AuditVerification,
  AuditVerifyOptions,
  StartSigner,
} from './audit-types.js';
import type {
  ClaimedWebhookDelivery,
  OutboxEvent,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './webhook-types.js';

// Audit and webhook records have files of their own; everything that imports the port finds them here.
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
  ClaimedWebhookDelivery,
  OutboxEvent,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookRecord,
} from './webhook-types.js';

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
  /** `key_challenge`: a one-time nonce a person signs to prove they hold a key they register. */
  kind: 'agent' | 'session' | 'login_link' | 'key_challenge';
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
  createdAt: number;
  revokedAt: number | null;
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
  type: string;
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
 * Everything done inside one transaction. Conditional updates return false when the
 * row changed underneath (version or status mismatch): the caller lost the race.
 * Inserts of an id (or name, or key) that already exists throw `GatehouseError('CONFLICT')`.
 */
export interface StoreTx {
  /**
   * Time at the start of this unit of work, in ms: the database's `now()` on Postgres, the
   * store's clock on SQLite. In `read()` it is always the store's clock.
   */
  readonly now: number;

  insertAgent(agent: Agent): Promise<void>;
  /** Changes an agent's autonomy (null: its profile decides); false when there is no such agent. */
  updateAgentAutonomy(id: string, autonomy: Agent['autonomy']): Promise<boolean>;
  getAgent(id: string): Promise<Agent | null>;
  listAgents(): Promise<Agent[]>;

  insertUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | null>;
  getUserByName(name: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  updateUser(user: UserRecord): Promise<void>;

  insertToken(token: TokenRecord): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | null>;
  /** Many tokens (and their sessions' people) in one query; hashes that match nothing are left out. */
  getCredentials(tokenHashes: readonly string[]): Promise<CredentialRecord[]>;
  revokeToken(tokenHash: string, at: number): Promise<boolean>;
  revokeTokensOf(subjectId: string, kind: TokenRecord['kind'], at: number): Promise<number>;

  insertSigningKey(key: SigningKeyRecord): Promise<void>;
  listSigningKeys(userId: string): Promise<SigningKeyRecord[]>;
  /** The key with this fingerprint, whoever registered it, revoked or not. */
  getSigningKeyByFingerprint(fingerprint: string): Promise<SigningKeyRecord | null>;

  insertRun(run: Run): Promise<void>;
  getRun(id: string): Promise<(Run & { version: number }) | null>;
  /** Newest first. */
  listRuns(filter: RunFilter): Promise<Page<Run>>;
  /** Writes `run` when the stored version still equals `expectedVersion`. */
  updateRun(run: Run, expectedVersion: number): Promise<boolean>;

  insertGate(gate: Gate): Promise<void>;
  getGate(id: string): Promise<(Gate & { version: number }) | null>;
  /** Oldest first (inbox order). */
  listGates(filter: GateFilter): Promise<Page<Gate>>;
  countGates(filter: Omit<GateFilter, 'limit' | 'cursor'>): Promise<number>;
  /**
   * Writes `gate` only if the stored row is still pending at `expectedVersion` and, when
   * `beforeDeadline` is set, its deadline has not passed by the database's clock.
   */
  updateGate(gate: Gate, expectedVersion: number, options?: { beforeDeadline?: boolean }): Promise<boolean>;
  /** Pending gates whose deadline has passed (by `now`), earliest deadline first, locked for this transaction. */
  claimDueGates(limit: number): Promise<(Gate & { version: number })[]>;

  getIdempotency(scope: string, key: string): Promise<IdempotencyRecord | null>;
  /** Returns false when the key already exists (another request won). */
  putIdempotency(record: IdempotencyRecord): Promise<boolean>;

  insertRememberedRule(rule: RememberedRule): Promise<void>;
  getRememberedRule(id: string): Promise<RememberedRule | null>;
  listRememberedRules(options: { includeRevoked?: boolean }): Promise<RememberedRule[]>;
  revokeRememberedRule(id: string, by: string, at: number): Promise<boolean>;

  insertConfidenceReport(report: ConfidenceReport): Promise<void>;
  listConfidenceReports(runId: string): Promise<ConfidenceReport[]>;

  insertIntervention(intervention: Intervention): Promise<void>;
  listInterventions(runId: string, afterCreatedAt?: number): Promise<Intervention[]>;

  insertPolicyVersion(policy: Omit<PolicyVersion, 'version'>): Promise<PolicyVersion>;
  getActivePolicy(): Promise<PolicyVersion | null>;
  getPolicyVersion(version: number): Promise<PolicyVersion | null>;
  listPolicyVersions(): Promise<PolicyVersion[]>;

  /** Appends to the hash chain (id, seq, time and hashes filled in); serialised so the chain never forks. */
  appendAudit(event: AuditInput): Promise<AuditEvent>;
  /** The chain's last link as this transaction sees it; `kind` is null when that is the retention start or genesis. */
  getAuditHead(): Promise<AuditHead>;
  /** Events with `seq >= fromSeq` in order, at most `limit`. */
  listAuditEvents(fromSeq: number, limit: number): Promise<AuditEvent[]>;
  getAuditCheckpoint(): Promise<AuditCheckpoint | null>;
  /** Appends a stream event; returns it with its sequence number. */
  appendStreamEvent(event: Omit<StreamEvent, 'seq' | 'at'>): Promise<StreamEvent>;

  insertWebhook(webhook: WebhookRecord): Promise<void>;
  getWebhook(id: string): Promise<WebhookRecord | null>;
  /** Oldest first. */
  listWebhooks(): Promise<WebhookRecord[]>;
  /** Enabled webhooks subscribed to `eventType`. */
  listWebhooksFor(eventType: string): Promise<WebhookRecord[]>;
  updateWebhook(webhook: WebhookRecord): Promise<boolean>;
  /** Removes the webhook with its subscriptions, deliveries and attempts. */
  deleteWebhook(id: string): Promise<boolean>;

  /**
   * Queues `event` when an enabled webhook subscribes to its type, in one statement; returns
   * false, writing nothing, when none does.
   */
  insertOutboxEvent(event: OutboxEvent): Promise<boolean>;
  /** The oldest queued events, locked for this transaction (skipped when another holds them). */
  claimOutboxEvents(limit: number): Promise<OutboxEvent[]>;
  deleteOutboxEvents(ids: string[]): Promise<void>;

  insertWebhookDelivery(delivery: WebhookDeliveryRecord): Promise<void>;
  getWebhookDelivery(id: string): Promise<WebhookDeliveryRecord | null>;
  listWebhookDeliveries(filter: WebhookDeliveryFilter): Promise<Page<WebhookDeliveryRecord>>;
  /** Oldest first. */
  listWebhookAttempts(deliveryId: string): Promise<WebhookAttemptRecord[]>;
  /** True when the outbox holds events or a delivery is due by `dueBy` and held by nobody. */
  hasWebhookWork(dueBy: number): Promise<boolean>;
  /**
   * Claims up to `limit` due deliveries for one attempt each, until `now + leaseMs`: counts the
   * attempt and returns them with `token`. A claim whose lease ran out (its node stopped) is
   * recorded as a failed attempt first; when that was the last attempt the delivery goes dead.
   */
  claimWebhookDeliveries(options: {
    limit: number;
    leaseMs: number;
    token: string;
    maxAttempts: number;
  }): Promise<ClaimedWebhookDelivery[]>;
  /**
   * Records an attempt and, while `token` still holds the claim, moves the delivery on as
   * `outcome` says; returns false when the claim was lost (the attempt is recorded anyway).
   */
  finishWebhookAttempt(input: {
    token: string;
    attempt: WebhookAttemptRecord;
    outcome: WebhookAttemptOutcome;
  }): Promise<boolean>;
  /** Gives a claim back without counting its attempt (the node is shutting down). */
  releaseWebhookDelivery(deliveryId: string, token: string): Promise<boolean>;
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
  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T>;
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
