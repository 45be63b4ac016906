import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type MigrationTestDb, openMigrationTestDb } from '../testing/migration-db.js';
import { initialMigration } from './0001-initial.js';
import { auditFilterIndexMigration } from './0025-audit-filter-index.js';

const event = (seq: number, actor: string, subject: string | null) => ({
  seq,
  id: `evt_${seq}`,
  at: seq,
  kind: 'test.event',
  actor,
  subject,
  data: '{}',
  prev_hash: 'p',
  hash: `h${seq}`,
});

describe.each(['sqlite', 'postgres'] as const)('migration 0025_audit_filter_index on %s', (dialect) => {
  let opened: MigrationTestDb | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  it('fills the filter tables from the events already there and drops the two indexes', async () => {
    opened = await openMigrationTestDb(dialect, 'm0025');
    const { db, schema } = opened;
    await initialMigration(dialect).up(db);
    await db
      .insertInto('audit_events')
      .values([event(1, 'agent:b', 'run_1'), event(2, 'agent:a', null), event(3, 'agent:b', 'agent_b')])
      .execute();

    await auditFilterIndexMigration(dialect, schema).up(db);

    const byActor = await db
      .selectFrom('audit_by_actor')
      .selectAll()
      .orderBy('actor')
      .orderBy('seq')
      .execute();
    expect(byActor.map((row) => [row.actor, Number(row.seq)])).toEqual([
      ['agent:a', 2],
      ['agent:b', 1],
      ['agent:b', 3],
    ]);
    const bySubject = await db.selectFrom('audit_by_subject').selectAll().orderBy('seq').execute();
    expect(bySubject.map((row) => [row.subject, Number(row.seq)])).toEqual([
      ['run_1', 1],
      ['agent_b', 3],
    ]);
    const mark = await db.selectFrom('audit_filter_mark').selectAll().execute();
    expect(mark.map((row) => [row.id, Number(row.seq)])).toEqual([[1, 3]]);
    const indexes =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db)
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = ${schema}`.execute(db);
    const names = indexes.rows.map((row) => row.name);
    expect(names).toContain('audit_kind');
    expect(names).not.toContain('audit_actor');
    expect(names).not.toContain('audit_subject');
  });

  it('starts the mark at 0 on an empty trail', async () => {
    opened = await openMigrationTestDb(dialect, 'm0025');
    const { db, schema } = opened;
    await initialMigration(dialect).up(db);
    await auditFilterIndexMigration(dialect, schema).up(db);
    const mark = await db.selectFrom('audit_filter_mark').select('seq').executeTakeFirstOrThrow();
    expect(Number(mark.seq)).toBe(0);
  });
});
