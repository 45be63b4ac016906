import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runStoreContract } from '../contract/run-store-contract.js';
import { migrateToLatest } from '../migrate.js';
import { loadSqliteDriver } from './driver.js';
import { createSqliteStore } from './sqlite-store.js';

const BetterSqlite3 = loadSqliteDriver().driver;

const clock = { now: () => Date.now() };

function tempFile(): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-store-'));
  return { file: join(dir, 'gatehouse.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

runStoreContract('sqlite', async () => {
  const { file, remove } = tempFile();
  const store = await createSqliteStore({ file, clock });
  return {
    store,
    async execute(statements) {
      const raw = new BetterSqlite3(file);
      try {
        raw.exec(statements);
      } finally {
        raw.close();
      }
    },
    async cleanup() {
      await store.close();
      remove();
    },
  };
});

describe('SQLite store', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(file: string) {
    const store = await createSqliteStore({ file, clock });
    cleanups.push(() => store.close());
    return store;
  }

  it('runs in WAL mode with synchronous=FULL and a busy timeout', async () => {
    const { file, remove } = tempFile();
    cleanups.push(remove);
    const store = await open(file);
    expect(store.pragmas()).toEqual({
      journalMode: 'wal',
      synchronous: 'full',
      busyTimeoutMs: 5000,
      walAutocheckpoint: 1000,
    });
    expect(store.appliedMigrations).toEqual([
      '0001_initial',
      '0002_webhooks',
      '0003_accounts',
      '0004_audit_append_only',
      '0005_reviews',
      '0006_workspace_search',
      '0007_recoveries',
      '0008_whitelists',
      '0010_notifications',
      '0011_slack_users',
      '0013_unique_agent_names',
      '0014_rule_scopes',
      '0015_audit_retention_prefix',
      '0016_signing_key_names',
      '0017_trust_proposals',
      '0018_gate_views',
      '0019_autonomy_proposals',
      '0020_gate_trace_context',
      '0021_sso_identities',
      '0022_review_conversation',
      '0023_signing_key_last_use',
      '0024_audit_seq_rowid',
      '0025_audit_filter_index',
      '0026_remembered_rules_by_tool',
      '0027_trust_proposals_by_agent',
      '0028_pending_gates_by_run',
      '0029_stream_seq_rowid',
      '0030_stream_run_only_in_runs',
    ]);
  });

  it('refuses a second writer on the same file while the first is open', async () => {
    const { file, remove } = tempFile();
    cleanups.push(remove);
    await open(file);
    await expect(createSqliteStore({ file, clock })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining(`process ${process.pid}`),
    });
  });

  it('keeps committed data across close and reopen, and migrates only once', async () => {
    const { file, remove } = tempFile();
    cleanups.push(remove);
    const first = await createSqliteStore({ file, clock });
    await first.transaction(async (tx) => {
      await tx.insertAgent({ id: 'agent_a', name: 'a', profile: null, autonomy: null, createdAt: 1 });
      await tx.appendAudit({ kind: 'agent.created', actor: 'user_admin', subject: 'agent_a', data: {} });
    });
    await first.close();
    const second = await open(file);
    expect(second.appliedMigrations).toEqual([]);
    expect(await second.read((tx) => tx.getAgent('agent_a'))).toMatchObject({ name: 'a' });
    expect(await second.verifyAuditChain()).toMatchObject({ ok: true, count: 1 });
  });

  it('migrates a file without serving it, once', async () => {
    const { file, remove } = tempFile();
    cleanups.push(remove);
    expect(await migrateToLatest({ file })).toEqual({
      dialect: 'sqlite',
      applied: [
        '0001_initial',
        '0002_webhooks',
        '0003_accounts',
        '0004_audit_append_only',
        '0005_reviews',
        '0006_workspace_search',
        '0007_recoveries',
        '0008_whitelists',
        '0010_notifications',
        '0011_slack_users',
        '0013_unique_agent_names',
        '0014_rule_scopes',
        '0015_audit_retention_prefix',
        '0016_signing_key_names',
        '0017_trust_proposals',
        '0018_gate_views',
        '0019_autonomy_proposals',
        '0020_gate_trace_context',
        '0021_sso_identities',
        '0022_review_conversation',
        '0023_signing_key_last_use',
        '0024_audit_seq_rowid',
        '0025_audit_filter_index',
        '0026_remembered_rules_by_tool',
        '0027_trust_proposals_by_agent',
        '0028_pending_gates_by_run',
        '0029_stream_seq_rowid',
        '0030_stream_run_only_in_runs',
      ],
    });
    expect(await migrateToLatest({ file })).toEqual({ dialect: 'sqlite', applied: [] });
  });

  it('refuses a file name that is not a path', async () => {
    await expect(createSqliteStore({ file: ':memory:', clock })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});
