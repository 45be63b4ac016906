import type { Migration } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';

type MigrationDb = Parameters<Migration['up']>[0];

// `bigint` has INTEGER affinity on SQLite and is int8 on Postgres: epoch ms and seqs fit both.
async function createPeople(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('agents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('profile', 'text')
    .addColumn('autonomy', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('tokens_subject').on('tokens').columns(['subject_id', 'kind']).execute();
  await db.schema
    .createTable('signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('signing_keys_user').on('signing_keys').column('user_id').execute();
}

async function createRunsAndGates(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runs_created').on('runs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('runs_agent').on('runs').columns(['agent_id', 'created_at']).execute();
  await db.schema
    .createTable('gates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('risk', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('run_id', 'text')
    .addColumn('timeout_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gates_created').on('gates').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('gates_due').on('gates').columns(['status', 'timeout_at']).execute();
  await db.schema.createIndex('gates_run').on('gates').columns(['run_id', 'created_at']).execute();
  await db.schema.createIndex('gates_agent').on('gates').columns(['agent_id', 'created_at']).execute();
  await db.schema
    .createTable('gate_assignees')
    .addColumn('gate_id', 'text', (c) => c.notNull())
    .addColumn('assignee', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('gate_assignees_pk', ['gate_id', 'assignee'])
    .execute();
  await db.schema.createIndex('gate_assignees_assignee').on('gate_assignees').column('assignee').execute();
}

async function createRules(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('idempotency')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_pk', ['scope', 'key'])
    .execute();
  await db.schema
    .createTable('remembered_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('args_hash', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_by', 'text')
    .addColumn('source_gate_id', 'text')
    .execute();
}

async function createReports(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('confidence_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text')
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('confidence_run')
    .on('confidence_reports')
    .columns(['run_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('interventions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('instruction', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('interventions_run')
    .on('interventions')
    .columns(['run_id', 'created_at'])
    .execute();
}

async function createPolicyVersions(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('policy_versions')
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** Creates the audit trail's table as `name`, its seq declared as `seqType`. */
export async function createAuditEventsTable(
  db: MigrationDb,
  name: string,
  seqType: 'bigint' | 'integer',
): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('seq', seqType, (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
}

/** The audit trail's indexes as the first schema made them. */
export async function createAuditEventsIndexes(db: MigrationDb): Promise<void> {
  await db.schema.createIndex('audit_kind').on('audit_events').columns(['kind', 'seq']).execute();
  await db.schema.createIndex('audit_subject').on('audit_events').columns(['subject', 'seq']).execute();
  await db.schema.createIndex('audit_actor').on('audit_events').columns(['actor', 'seq']).execute();
  await db.schema.createIndex('audit_at').on('audit_events').column('at').execute();
}

async function createAudit(db: MigrationDb): Promise<void> {
  await createAuditEventsTable(db, 'audit_events', 'bigint');
  await createAuditEventsIndexes(db);
  await db.schema
    .createTable('audit_checkpoint')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('truncated_at', 'bigint', (c) => c.notNull())
    .addColumn('removed', 'bigint', (c) => c.notNull())
    .execute();
}

async function createStream(db: MigrationDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('stream_events')
    .$call((t) =>
      dialect === 'postgres'
        ? t.addColumn('seq', 'bigserial', (c) => c.primaryKey())
        : t.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement()),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('gate_id', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stream_run').on('stream_events').columns(['run_id', 'seq']).execute();
}

/** The first schema: every table of the store. */
export function initialMigration(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createPeople(db);
      await createRunsAndGates(db);
      await createRules(db);
      await createReports(db);
      await createPolicyVersions(db);
      await createAudit(db);
      await createStream(db, dialect);
    },
  };
}
