import type { Agent, AuditEvent, ConfidenceReport, Gate, Intervention, Run } from 'gatehouse-hitl-core';
import type { AuditCheckpoint, AuditHead, AuditInput } from './audit-types.js';
import type {
  CredentialRecord,
  GateFilter,
  IdempotencyRecord,
  Page,
  PolicyVersion,
  RememberedRule,
  RunFilter,
  SigningKeyRecord,
  StreamEvent,
  TokenRecord,
  UserRecord,
} from './types.js';
import type {
  ClaimedWebhookDelivery,
  OutboxEvent,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './webhook-types.js';

// One role per repository: code that only reads gates asks for `GatesRepo`, not the whole `StoreTx`.

/** The unit of work's clock. */
export interface TxClock {
  /**
   * Time at the start of this unit of work, in ms: the database's `now()` on Postgres, the
   * store's clock on SQLite. In `read()` it is always the store's clock.
   */
  readonly now: number;
}

/** Agents and the autonomy their runs start from. */
export interface AgentsRepo {
  insertAgent(agent: Agent): Promise<void>;
  /** Changes an agent's autonomy (null: its profile decides); false when there is no such agent. */
  updateAgentAutonomy(id: string, autonomy: Agent['autonomy']): Promise<boolean>;
  getAgent(id: string): Promise<Agent | null>;
  listAgents(): Promise<Agent[]>;
}

/** People and the keys they sign decisions with. */
export interface UsersRepo {
  insertUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | null>;
  getUserByName(name: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  updateUser(user: UserRecord): Promise<void>;

  insertSigningKey(key: SigningKeyRecord): Promise<void>;
  listSigningKeys(userId: string): Promise<SigningKeyRecord[]>;
  /** Renames one of the person's unrevoked keys; false when they have no such key. */
  renameSigningKey(key: { userId: string; id: string; name: string | null }): Promise<boolean>;
  /** Revokes one of the person's unrevoked keys; false when they have no such key. */
  revokeSigningKey(key: { userId: string; id: string; at: number }): Promise<boolean>;
  /** Records that a decision signed with the key verified at `at`. */
  touchSigningKey(key: { id: string; at: number }): Promise<void>;
  /** The key with this fingerprint, whoever registered it, revoked or not. */
  getSigningKeyByFingerprint(fingerprint: string): Promise<SigningKeyRecord | null>;
}

/** Credentials: agent tokens, sessions, login links and key challenges. */
export interface TokensRepo {
  insertToken(token: TokenRecord): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | null>;
  /** Many tokens (and their sessions' people) in one query; hashes that match nothing are left out. */
  getCredentials(tokenHashes: readonly string[]): Promise<CredentialRecord[]>;
  revokeToken(tokenHash: string, at: number): Promise<boolean>;
  revokeTokensOf(subjectId: string, kind: TokenRecord['kind'], at: number): Promise<number>;
}

/** Runs, written with conditional updates on their version. */
export interface RunsRepo {
  insertRun(run: Run): Promise<void>;
  getRun(id: string): Promise<(Run & { version: number }) | null>;
  /** Newest first. */
  listRuns(filter: RunFilter): Promise<Page<Run>>;
  /** Writes `run` when the stored version still equals `expectedVersion`. */
  updateRun(run: Run, expectedVersion: number): Promise<boolean>;
}

/** Gates, written with conditional updates on their version and status. */
export interface GatesRepo {
  insertGate(gate: Gate): Promise<void>;
  getGate(id: string): Promise<(Gate & { version: number }) | null>;
  /** Oldest first (inbox order). */
  listGates(filter: GateFilter): Promise<Page<Gate>>;
  countGates(filter: Omit<GateFilter, 'limit' | 'cursor'>): Promise<number>;
  /**
   * Writes `gate` only if the stored row is still pending at `expectedVersion` and, when
   * `beforeDeadline` is set, its deadline has not passed by the database's clock. A gate's agent, run
   * and creation time never change: a `gate` that changes one is not written either.
   */
  updateGate(gate: Gate, expectedVersion: number, options?: { beforeDeadline?: boolean }): Promise<boolean>;
  /** Pending gates whose deadline has passed (by `now`), earliest deadline first, locked for this transaction. */
  claimDueGates(limit: number): Promise<(Gate & { version: number })[]>;
  /** Keeps the trace context (JSON) of the request that opened the gate. */
  setGateTraceContext(gateId: string, traceContext: string): Promise<void>;
  /** The gate's trace context as stored, or null. */
  getGateTraceContext(gateId: string): Promise<string | null>;
}

/** First answers to request keys, replayed to retries. */
export interface IdempotencyRepo {
  getIdempotency(scope: string, key: string): Promise<IdempotencyRecord | null>;
  /** Returns false when the key already exists (another request won). */
  putIdempotency(record: IdempotencyRecord): Promise<boolean>;
}

/** "Approve always" answers. */
export interface RulesRepo {
  insertRememberedRule(rule: RememberedRule): Promise<void>;
  getRememberedRule(id: string): Promise<RememberedRule | null>;
  listRememberedRules(options: { includeRevoked?: boolean }): Promise<RememberedRule[]>;
  /** The rules for `tool` neither revoked nor expired at `at`, oldest first. */
  listRulesInForce(tool: string, at: number): Promise<RememberedRule[]>;
  revokeRememberedRule(id: string, by: string, at: number): Promise<boolean>;
}

/** Saved versions of the policy; the newest is active. */
export interface PoliciesRepo {
  insertPolicyVersion(policy: Omit<PolicyVersion, 'version'>): Promise<PolicyVersion>;
  getActivePolicy(): Promise<PolicyVersion | null>;
  getPolicyVersion(version: number): Promise<PolicyVersion | null>;
  listPolicyVersions(): Promise<PolicyVersion[]>;
}

/** What runs report and what people send them: confidence reports and interventions. */
export interface ReportsRepo {
  insertConfidenceReport(report: ConfidenceReport): Promise<void>;
  listConfidenceReports(runId: string): Promise<ConfidenceReport[]>;

  insertIntervention(intervention: Intervention): Promise<void>;
  listInterventions(runId: string, afterCreatedAt?: number): Promise<Intervention[]>;
}

/** The audit trail's hash chain. */
export interface AuditRepo {
  /** Appends to the hash chain (id, seq, time and hashes filled in); serialised so the chain never forks. */
  appendAudit(event: AuditInput): Promise<AuditEvent>;
  /** The chain's last link as this transaction sees it; `kind` is null when that is the retention start or genesis. */
  getAuditHead(): Promise<AuditHead>;
  /** Events with `seq >= fromSeq` in order, at most `limit`. */
  listAuditEvents(fromSeq: number, limit: number): Promise<AuditEvent[]>;
  getAuditCheckpoint(): Promise<AuditCheckpoint | null>;
}

/** Events for streams, ordered by `seq`. */
export interface StreamEventsRepo {
  /** Appends a stream event; returns it with its sequence number. */
  appendStreamEvent(event: Omit<StreamEvent, 'seq' | 'at'>): Promise<StreamEvent>;
}

/** Webhooks and the outbox of events queued for them. */
export interface WebhooksRepo {
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
   * False when no enabled webhook subscribes to `eventType`, so the event need not be built; true
   * when one may (known without a query where this store is the database's one writer).
   */
  webhooksMayHear(eventType: string): Promise<boolean>;
  /**
   * Queues `event` when an enabled webhook subscribes to its type, in one statement; returns
   * false, writing nothing, when none does.
   */
  insertOutboxEvent(event: OutboxEvent): Promise<boolean>;
  /** The oldest queued events, locked for this transaction (skipped when another holds them). */
  claimOutboxEvents(limit: number): Promise<OutboxEvent[]>;
  deleteOutboxEvents(ids: string[]): Promise<void>;
}

/** Webhook deliveries, their claims and attempts. */
export interface WebhookDeliveriesRepo {
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
