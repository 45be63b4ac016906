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
  kind: 'agent' | 'session' | 'login_link';
  subjectId: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** A public key a person signs decisions with. */
export interface SigningKeyRecord {
  id: string;
  userId: string;
  /** Ed25519 public key, base64 (raw 32 bytes) or PEM. */
  publicKey: string;
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
}

/** Why a chain failed to verify: an edited row, a link that does not match, a missing or misplaced seq. */
export type AuditFailure = 'hash_mismatch' | 'broken_link' | 'gap' | 'reordered';

/** Result of checking the audit hash chain. */
export type AuditVerification =
  | { ok: true; count: number; lastHash: string | null }
  | { ok: false; seq: number; reason: AuditFailure };

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
  getAgent(id: string): Promise<Agent | null>;
  listAgents(): Promise<Agent[]>;

  insertUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | null>;
  getUserByName(name: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  updateUser(user: UserRecord): Promise<void>;

  insertToken(token: TokenRecord): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | null>;
  revokeToken(tokenHash: string, at: number): Promise<boolean>;
  revokeTokensOf(subjectId: string, kind: TokenRecord['kind'], at: number): Promise<number>;

  insertSigningKey(key: SigningKeyRecord): Promise<void>;
  listSigningKeys(userId: string): Promise<SigningKeyRecord[]>;

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
  /** Appends a stream event; returns it with its sequence number. */
  appendStreamEvent(event: Omit<StreamEvent, 'seq' | 'at'>): Promise<StreamEvent>;
}

/** Gatehouse's storage port: SQLite and Postgres implement it and pass one contract suite. */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
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
  /** Checks the whole stored chain, starting from the checkpoint if there is one. */
  verifyAuditChain(): Promise<AuditVerification>;
  /**
   * Removes the oldest events, up to (not including) the first one at or after `before`: only
   * ever a prefix of the chain, never holes. Records a checkpoint; null when nothing was removed.
   */
  truncateAudit(options: { before: number }): Promise<AuditCheckpoint | null>;

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
