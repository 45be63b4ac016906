import type { Generated, Kysely, QueryResult } from 'kysely';
import type { JournalEntriesTable, SearchChunksTable, SearchIndexStateTable } from '../search-types.js';
import type { GateViewsTable } from './gate-view-tables.js';
import type { NotificationTables } from './notification-tables.js';
import type { FalsePositivesTable, RecoveriesTable } from './recovery-tables.js';
import type {
  ReviewCommentsTable,
  ReviewFileViewsTable,
  ReviewSummariesTable,
  ReviewsTable,
  ReviewVerdictsTable,
} from './review-tables.js';
import type { SlackSeenRequestsTable, SlackUsersTable } from './slack-tables.js';
import type { SsoIdentitiesTable } from './sso-tables.js';
import type { TrustProposalsTable } from './trust-tables.js';
import type { DetectionsTable, PatternAlertsTable, WhitelistsTable } from './whitelist-tables.js';

/** The two engines the store runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** Row shapes, one per table, as Kysely sees them (epoch ms and seqs are numbers). */
export interface AgentsTable {
  id: string;
  name: string;
  profile: string | null;
  autonomy: string | null;
  created_at: number;
  created_by: string | null;
}

export interface UsersTable {
  id: string;
  name: string;
  role: string;
  password_hash: string | null;
  disabled: number;
  created_at: number;
}

export interface TokensTable {
  token_hash: string;
  kind: string;
  subject_id: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

export interface SigningKeysTable {
  id: string;
  user_id: string;
  public_key: string;
  created_at: number;
  revoked_at: number | null;
  fingerprint: string | null;
  name: string | null;
  last_used_at: number | null;
}

export interface RunsTable {
  id: string;
  agent_id: string;
  status: string;
  created_at: number;
  updated_at: number;
  version: number;
  data: string;
}

export interface GatesTable {
  id: string;
  status: string;
  type: string;
  risk: string;
  agent_id: string | null;
  run_id: string | null;
  timeout_at: number | null;
  created_at: number;
  version: number;
  data: string;
  /** JSON `{ traceparent, tracestate? }` of the request that opened the gate; null when untraced. */
  trace_context: string | null;
}

export interface GateAssigneesTable {
  gate_id: string;
  assignee: string;
}

export interface IdempotencyTable {
  scope: string;
  key: string;
  request_hash: string;
  response: string;
  created_at: number;
}

export interface RememberedRulesTable {
  id: string;
  scope: string;
  run_id: string | null;
  agent_id: string | null;
  tool: string;
  args_hash: string | null;
  /** StandingScope as JSON; null for rules stored before scopes. */
  scope_match: string | null;
  created_by: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revoked_by: string | null;
  source_gate_id: string | null;
}

export interface ConfidenceReportsTable {
  id: string;
  run_id: string | null;
  agent_id: string;
  task_id: string | null;
  confidence: number;
  reasons: string;
  created_at: number;
}

export interface InterventionsTable {
  id: string;
  run_id: string;
  kind: string;
  instruction: string | null;
  actor: string;
  created_at: number;
}

export interface PolicyVersionsTable {
  version: number;
  source: string;
  format: string;
  created_by: string;
  created_at: number;
}

export interface AuditEventsTable {
  seq: number;
  id: string;
  at: number;
  kind: string;
  actor: string;
  subject: string | null;
  data: string;
  prev_hash: string;
  hash: string;
}

/** One row per audit event with an actor: what queries by actor read (see repos/audit-filter-index.ts). */
export interface AuditByActorTable {
  actor: string;
  seq: number;
}

/** One row per audit event with a subject: what queries by subject read. */
export interface AuditBySubjectTable {
  subject: string;
  seq: number;
}

/** Every event up to `seq` is in audit_by_actor and audit_by_subject; later ones are read from audit_events. */
export interface AuditFilterMarkTable {
  id: number;
  seq: number;
}

export interface AuditCheckpointTable {
  id: number;
  seq: number;
  hash: string;
  truncated_at: number;
  removed: number;
  key_id: string | null;
  signature: string | null;
}

/** A row here (SQLite) lets retention's own transaction past the append-only triggers. */
export interface AuditRetentionGuardTable {
  id: number;
}

export interface StreamEventsTable {
  seq: Generated<number>;
  type: string;
  run_id: string | null;
  agent_id: string | null;
  gate_id: string | null;
  data: string;
  at: number;
}

export interface WebhooksTable {
  id: string;
  url: string;
  /** JSON array of event types (the same as the webhook_events rows). */
  events: string;
  description: string | null;
  enabled: number;
  secret: string;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface WebhookEventsTable {
  webhook_id: string;
  event_type: string;
}

export interface OutboxTable {
  id: string;
  type: string;
  payload: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  claim_token: string | null;
  claimed_at: number | null;
  claimed_until: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number | null;
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
}

/** Every table of the store, as Kysely sees them. */
export interface Database extends NotificationTables {
  agents: AgentsTable;
  users: UsersTable;
  tokens: TokensTable;
  signing_keys: SigningKeysTable;
  runs: RunsTable;
  gates: GatesTable;
  gate_assignees: GateAssigneesTable;
  idempotency: IdempotencyTable;
  remembered_rules: RememberedRulesTable;
  confidence_reports: ConfidenceReportsTable;
  interventions: InterventionsTable;
  policy_versions: PolicyVersionsTable;
  audit_events: AuditEventsTable;
  audit_checkpoint: AuditCheckpointTable;
  audit_by_actor: AuditByActorTable;
  audit_by_subject: AuditBySubjectTable;
  audit_filter_mark: AuditFilterMarkTable;
  audit_retention_guard: AuditRetentionGuardTable;
  stream_events: StreamEventsTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  outbox: OutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  journal_entries: JournalEntriesTable;
  search_index_state: SearchIndexStateTable;
  search_chunks: SearchChunksTable;
  reviews: ReviewsTable;
  review_comments: ReviewCommentsTable;
  review_verdicts: ReviewVerdictsTable;
  review_summaries: ReviewSummariesTable;
  review_file_views: ReviewFileViewsTable;
  recoveries: RecoveriesTable;
  false_positives: FalsePositivesTable;
  whitelists: WhitelistsTable;
  detections: DetectionsTable;
  pattern_alerts: PatternAlertsTable;
  slack_users: SlackUsersTable;
  slack_seen_requests: SlackSeenRequestsTable;
  sso_identities: SsoIdentitiesTable;
  gate_views: GateViewsTable;
  trust_proposals: TrustProposalsTable;
}

/** What every query of one unit of work runs with. */
export interface TxContext {
  /** Bound to the one connection of this transaction (or read). */
  readonly db: Kysely<Database>;
  readonly now: number;
  readonly dialect: Dialect;
  /** SQL text of the store's prepared queries by name, compiled once per store (see prepared.ts). */
  readonly statements: Map<string, string>;
  /** What the transaction already knows; one write batch shares it across its units. */
  readonly memo: TxMemo;
  /** Runs SQL on the same connection without Kysely, where the engine allows (SQLite's synchronous driver). */
  readonly execute?: DirectExecute | undefined;
}

/** Runs one statement at once on the connection of a transaction or read. */
export type DirectExecute = (sqlText: string, parameters: readonly unknown[]) => QueryResult<unknown>;

/** Facts a transaction learnt that later statements of it may reuse. */
export interface TxMemo {
  /** The audit chain's head after the last append; forgotten when a unit rolls back. */
  auditHead: { seq: number; hash: string } | null;
  /** A unit wrote tokens or people: caches of credentials must look again after the commit. */
  credentialsChanged: boolean;
  /** The first audit event this transaction appended, so its commit can tell whether the filter index is due. */
  auditFirstAppended: number | null;
  /**
   * No other process writes this database (SQLite's lock file): what the memo learns of its rows
   * stays true across commits until this store changes them.
   */
  soleWriter: boolean;
  /** The event types some webhook subscribes to, kept only by a sole writer; null when unknown. */
  webhookEvents: ReadonlySet<string> | null;
}

/** A memo for a new transaction or read. */
export function newTxMemo(soleWriter = false): TxMemo {
  return {
    auditHead: null,
    credentialsChanged: false,
    auditFirstAppended: null,
    soleWriter,
    webhookEvents: null,
  };
}

/** What a sole writer's batches carry from one commit to the next: facts no other process changes. */
export type CarriedFacts = Pick<TxMemo, 'auditHead' | 'webhookEvents'>;

/** Forgets what a unit that rolled back may have taught the memo. */
export function forgetUnitFacts(facts: CarriedFacts): void {
  facts.auditHead = null;
  facts.webhookEvents = null;
}
