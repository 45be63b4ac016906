import { GatehouseError } from 'gatehouse-hitl-core';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';
import { initialMigration } from './0001-initial.js';
import { webhooksMigration } from './0002-webhooks.js';
import { accountsMigration } from './0003-accounts.js';
import { auditAppendOnlyMigration } from './0004-audit-append-only.js';
import { reviewsMigration } from './0005-reviews.js';
import { workspaceSearchMigration } from './0006-workspace-search.js';
import { recoveriesMigration } from './0007-recoveries.js';
import { whitelistsMigration } from './0008-whitelists.js';
import { notificationsMigration } from './0010-notifications.js';
import { slackUsersMigration } from './0011-slack-users.js';
import { uniqueAgentNamesMigration } from './0013-unique-agent-names.js';
import { ruleScopesMigration } from './0014-rule-scopes.js';
import { auditRetentionPrefixMigration } from './0015-audit-retention-prefix.js';
import { signingKeyNamesMigration } from './0016-signing-key-names.js';
import { trustProposalsMigration } from './0017-trust-proposals.js';
import { gateViewsMigration } from './0018-gate-views.js';
import { autonomyProposalsMigration } from './0019-autonomy-proposals.js';
import { gateTraceContextMigration } from './0020-gate-trace-context.js';
import { ssoIdentitiesMigration } from './0021-sso-identities.js';
import { reviewConversationMigration } from './0022-review-conversation.js';
import { signingKeyLastUseMigration } from './0023-signing-key-last-use.js';
import { auditSeqRowidMigration } from './0024-audit-seq-rowid.js';
import { auditFilterIndexMigration } from './0025-audit-filter-index.js';
import { rememberedRulesByToolMigration } from './0026-remembered-rules-by-tool.js';
import { trustProposalsByAgentMigration } from './0027-trust-proposals-by-agent.js';
import { pendingGatesByRunMigration } from './0028-pending-gates-by-run.js';
import { streamSeqRowidMigration } from './0029-stream-seq-rowid.js';
import { streamRunOnlyInRunsMigration } from './0030-stream-run-only-in-runs.js';

/** Migrations take a Kysely instance of any table shape. */
export type MigrationDb = Parameters<Migration['up']>[0];

const MIGRATION_TABLE = 'gatehouse_migration';
const MIGRATION_LOCK_TABLE = 'gatehouse_migration_lock';

/** The store's migrations, in code so the bundle needs no migration folder. */
export function createMigrationProvider(dialect: Dialect, schema?: string): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001_initial': initialMigration(dialect),
    '0002_webhooks': webhooksMigration(dialect),
    '0003_accounts': accountsMigration(),
    '0004_audit_append_only': auditAppendOnlyMigration(dialect, schema),
    '0005_reviews': reviewsMigration(),
    '0006_workspace_search': workspaceSearchMigration(dialect, schema),
    '0007_recoveries': recoveriesMigration(),
    '0008_whitelists': whitelistsMigration(),
    '0010_notifications': notificationsMigration(),
    '0011_slack_users': slackUsersMigration(),
    '0013_unique_agent_names': uniqueAgentNamesMigration(),
    '0014_rule_scopes': ruleScopesMigration(),
    '0015_audit_retention_prefix': auditRetentionPrefixMigration(dialect, schema),
    '0016_signing_key_names': signingKeyNamesMigration(),
    '0018_gate_views': gateViewsMigration(),
    '0017_trust_proposals': trustProposalsMigration(),
    '0019_autonomy_proposals': autonomyProposalsMigration(),
    '0020_gate_trace_context': gateTraceContextMigration(),
    '0021_sso_identities': ssoIdentitiesMigration(),
    '0022_review_conversation': reviewConversationMigration(),
    '0023_signing_key_last_use': signingKeyLastUseMigration(),
    '0024_audit_seq_rowid': auditSeqRowidMigration(dialect),
    '0025_audit_filter_index': auditFilterIndexMigration(dialect, schema),
    '0026_remembered_rules_by_tool': rememberedRulesByToolMigration(),
    '0027_trust_proposals_by_agent': trustProposalsByAgentMigration(),
    '0028_pending_gates_by_run': pendingGatesByRunMigration(),
    '0029_stream_seq_rowid': streamSeqRowidMigration(dialect),
    '0030_stream_run_only_in_runs': streamRunOnlyInRunsMigration(),
  };
  return { getMigrations: async () => migrations };
}

// Postgres codes of a catalog read racing another schema's drop: undefined schema, column, table.
const RACED_CATALOG_READ = new Set(['3F000', '42703', '42P01']);
// A catalog function (a parallel worker's pg_get_serial_sequence, say) reading a schema dropped meanwhile.
const RACED_CACHE_LOOKUP = /^cache lookup failed for (namespace|relation|type|attribute)/;
const SETUP_ATTEMPTS = 5;

/** Whether a failed catalog read only raced another schema's drop, so trying again is safe. */
export function racedCatalogRead(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return false;
  if (RACED_CATALOG_READ.has(code)) return true;
  return code === 'XX000' && typeof message === 'string' && RACED_CACHE_LOOKUP.test(message);
}

/**
 * Kysely's set-up lists tables of every schema in the database; when another schema is dropped
 * meanwhile Postgres fails that read, so a set-up that failed that way (and applied nothing) is retried.
 */
async function migrateWithRetry(migrator: Migrator) {
  for (let attempt = 1; ; attempt++) {
    const result = await migrator.migrateToLatest();
    const appliedNothing = (result.results ?? []).length === 0;
    if (result.error === undefined || !appliedNothing || !racedCatalogRead(result.error)) return result;
    if (attempt >= SETUP_ATTEMPTS) return result;
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
  }
}

/**
 * Brings the database to the latest schema; returns the names of the migrations applied.
 * `db` must already be scoped to `schema` (withSchema) when one is given.
 */
export async function runMigrations(db: MigrationDb, dialect: Dialect, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: createMigrationProvider(dialect, schema),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results = [] } = await migrateWithRetry(migrator);
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? 'setup';
    throw new GatehouseError(
      'SERVICE_UNAVAILABLE',
      `database migration ${failed} failed`,
      { migration: failed },
      error,
    );
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
