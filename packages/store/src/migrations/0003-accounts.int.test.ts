import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database, Dialect } from '../db/schema.js';
import { loadSqliteDriver } from '../sqlite/driver.js';
import { startTestPostgres } from '../testing/postgres.js';
import { initialMigration } from './0001-initial.js';
import { webhooksMigration } from './0002-webhooks.js';
import { accountsMigration, signingKeyFingerprint } from './0003-accounts.js';

const BetterSqlite3 = loadSqliteDriver().driver;

interface Opened {
  db: Kysely<Database>;
  close(): Promise<void>;
}

async function openSqlite(): Promise<Opened> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-0003-'));
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new BetterSqlite3(join(dir, 'db.sqlite')) }),
  });
  return {
    db,
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(): Promise<Opened> {
  const postgres = await startTestPostgres();
  const schema = `m0003_${Math.random().toString(36).slice(2, 10)}`;
  const pool = new pg.Pool({ connectionString: postgres.connectionString, max: 1 });
  const base = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await sql`create schema ${sql.id(schema)}`.execute(base);
  return {
    db: base.withSchema(schema),
    async close() {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(base);
      await base.destroy();
      await postgres.close();
    },
  };
}

function rawKey(): string {
  return generateKeyPairSync('ed25519')
    .publicKey.export({ format: 'der', type: 'spki' })
    .subarray(12)
    .toString('base64');
}

const open: Record<Dialect, () => Promise<Opened>> = { sqlite: openSqlite, postgres: openPostgres };

describe.each(['sqlite', 'postgres'] as const)('migration 0003_accounts on %s', (dialect) => {
  let opened: Opened | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  it('gives agents their creator from the audit and keeps a key claimed twice with its first owner', async () => {
    opened = await open[dialect]();
    const { db } = opened;
    await initialMigration(dialect).up(db);
    await webhooksMigration(dialect).up(db);
    const shared = rawKey();
    const own = rawKey();
    await db
      .insertInto('agents')
      .values([
        { id: 'agent_a', name: 'a', profile: null, autonomy: null, created_at: 1 },
        { id: 'agent_seeded', name: 's', profile: null, autonomy: null, created_at: 1 },
      ] as never)
      .execute();
    await db
      .insertInto('audit_events')
      .values({
        seq: 1,
        id: 'ev_1',
        at: 1,
        kind: 'agent.created',
        actor: 'user:user_owner',
        subject: 'agent_a',
        data: '{}',
        prev_hash: '0',
        hash: '1',
      })
      .execute();
    const key = (id: string, userId: string, publicKey: string, at: number) => ({
      id,
      user_id: userId,
      public_key: publicKey,
      created_at: at,
      revoked_at: null,
    });
    await db
      .insertInto('signing_keys')
      .values([
        key('key_lead', 'user_lead', shared, 1),
        key('key_admin', 'user_admin', shared, 2),
        key('key_own', 'user_admin', own, 3),
      ] as never)
      .execute();

    await accountsMigration().up(db);

    const agents = await db.selectFrom('agents').select(['id', 'created_by']).orderBy('id').execute();
    expect(agents).toEqual([
      { id: 'agent_a', created_by: 'user_owner' },
      { id: 'agent_seeded', created_by: null },
    ]);
    const keys = await db
      .selectFrom('signing_keys')
      .select(['id', 'fingerprint', 'revoked_at'])
      .orderBy('id')
      .execute();
    expect(keys).toEqual([
      { id: 'key_admin', fingerprint: null, revoked_at: expect.anything() },
      { id: 'key_lead', fingerprint: signingKeyFingerprint(shared), revoked_at: null },
      { id: 'key_own', fingerprint: signingKeyFingerprint(own), revoked_at: null },
    ]);
    await expect(
      db
        .insertInto('signing_keys')
        .values({ ...key('key_again', 'user_x', shared, 4), fingerprint: signingKeyFingerprint(shared) })
        .execute(),
    ).rejects.toThrow();
  });
});
