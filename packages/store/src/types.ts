import type { KeyObject } from 'node:crypto';
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
} from '@gatehouse/core';

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

/** Audit query, in seq order: `since` is inclusive, `until` exclusive (both epoch ms). */
export interface AuditFilter {
  kind?: string;
  actor?: string;
  subject?: string;
  fromSeq?: number;
  since?: number;
  until?: number;
  limit?: number;
  cursor?: string;
  /** `desc` pages newest first. @default 'asc' */
  order?: 'asc' | 'desc';
}

/** The last link of the audit chain. */
export interface AuditHead {
  seq: number;
  hash: string;
  kind: string | null;
}

/** Signs a retention start: gets the start's statement text, returns a signature and the key's id. */
export type StartSigner = (statement: { seq: number; hash: string; truncatedAt: number }) => {
  keyId: string;
  signature: string;
};

/** What `verifyAuditChain` checks signed checkpoints against. */
export interface AuditVerifyOptions {
  /** The audit key (PEM or KeyObject); without it checkpoints are not checked. */
  publicKey?: KeyObject | string;
  /** Checkpoints published outside the database (the heads file), in any order. */
  heads?: readonly SignedCheckpoint[];
}

/** A signed statement that the chain's link `seq` had hash `hash` at `at`. */
export interface SignedCheckpoint {
  seq: number;
  hash: string;
  at: number;
  keyId: string;
  /** Ed25519 over `checkpointStatement(…)`, base64. */
  signature: string;
}

/** The audit event as the caller gives it; seq, hashes and id are filled in by the store. */
export interface AuditInput {
  kind: string;
  actor: string;
  subject: string | null;
  data: Record<string, unknown>;
}

/** A verified-start marker left by retention truncation so the rest of the chain still verifies. */
export interface AuditCheckpoint {
  /** Sequence number of the last removed event: the remaining chain starts at `seq + 1`. */
  seq: number;
  /** Hash of the last removed event: the `prevHash` of the first remaining one. */
  hash: string;
  truncatedAt: number;
  /** How many events the latest truncation removed (all removals so far add up to `seq`). */
  removed: number;
  /** Which audit key signed this start (see `startStatement`); null when it was written unsigned. */
  keyId: string | null;
  /** Ed25519 signature of the start statement, base64; a start without one is not trusted by verify. */
  signature: string | null;
}

/**
 * Why a chain failed to verify: an edited row, a link that does not match, a missing or misplaced
 * seq; or a signed checkpoint that is forged (`bad_signature`), names a hash the chain no longer has
 * (`checkpoint_mismatch`), names a seq past the chain's end (`truncated`), or a retention start
 * that no key signed (`unsigned_start`).
 */
export type AuditFailure =
  | 'hash_mismatch'
  | 'broken_link'
  | 'gap'
  | 'reordered'
  | 'bad_signature'
  | 'checkpoint_mismatch'
  | 'truncated'
  | 'unsigned_start';

/** Where a signed checkpoint came from: an `audit.checkpoint` event, the published heads, or the retention start. */
export type CheckpointSource = 'chain' | 'heads' | 'start';

/** Result of checking the audit hash chain and, with a public key, its signed checkpoints. */
export type AuditVerification =
  | {
      ok: true;
      count: number;
      lastHash: string | null;
      /** Signed checkpoints whose signature and hash were checked (0 without a public key). */
      checkpoints: number;
      /** The newest checked checkpoint: everything up to its seq is covered by a signature. */
      lastCheckpoint: { seq: number; at: number } | null;
    }
  | {
      ok: false;
      seq: number;
      reason: AuditFailure;
      /** The first bad checkpoint, when a checkpoint is what failed. */
      checkpoint?: { seq: number; at: number; source: CheckpointSource };
    };

/** A registered webhook: events of the chosen types are POSTed to `url`, signed with `secret`. */
export interface WebhookRecord {
  id: string;
  url: string;
  /** Event types it receives, e.g. `gate.opened`. */
  events: string[];
  description: string | null;
  /** A disabled webhook gets no new deliveries. */
  enabled: boolean;
  /** The HMAC key deliveries are signed with: kept as given, because signing needs the key itself. */
  secret: string;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

/** A side effect waiting to be handed out, written in the same transaction as the change it announces. */
export interface OutboxEvent {
  /** Stable event id: the same on every attempt and every redelivery. */
  id: string;
  type: string;
  /** The JSON document subscribers receive, exactly as sent. */
  payload: string;
  createdAt: number;
}

/** `pending` waits for its next attempt, `succeeded` was acknowledged with a 2xx, `dead` ran out of attempts. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'dead';

/** One event on its way to one webhook. */
export interface WebhookDeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: WebhookDeliveryStatus;
  /** Attempts started so far. */
  attempts: number;
  /** When the next attempt is due; null once the delivery has ended. */
  nextAttemptAt: number | null;
  /** A node holds the delivery until then (database time); null when nobody does. */
  claimedUntil: number | null;
  lastAttemptAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The delivery this one sends again, when it was made on demand. */
  redeliveryOf: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What one attempt to deliver got back. */
export interface WebhookAttemptRecord {
  deliveryId: string;
  /** 1 for the first attempt of the delivery. */
  attempt: number;
  startedAt: number;
  durationMs: number | null;
  /** The HTTP status; null when no response came. */
  statusCode: number | null;
  /** The start of the response body. */
  responseExcerpt: string | null;
  error: string | null;
}

/** A delivery claimed for one attempt: `attempts` is this attempt's number. */
export interface ClaimedWebhookDelivery extends WebhookDeliveryRecord {
  claimToken: string;
}

/** Deliveries of one webhook, newest first. */
export interface WebhookDeliveryFilter {
  webhookId: string;
  status?: WebhookDeliveryStatus;
  limit?: number;
  cursor?: string;
}

/** How an attempt leaves its delivery. */
export type WebhookAttemptOutcome =
  | { status: 'succeeded' }
  | { status: 'pending'; nextAttemptAt: number }
  | { status: 'dead' };

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
