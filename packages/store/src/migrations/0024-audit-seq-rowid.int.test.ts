import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type MigrationTestDb, openMigrationTestDb } from '../testing/migration-db.js';
import { initialMigration } from './0001-initial.js';
import { auditAppendOnlyMigration } from './0004-audit-append-only.js';
import { auditRetentionPrefixMigration } from './0015-audit-retention-prefix.js';
import { auditSeqRowidMigration } from './0024-audit-seq-rowid.js';

const event = (seq: number) => ({
  seq,
  id: `evt_${seq}`,
  at: seq,
  kind: 'test.event',
  actor: 'agent:a',
  subject: seq % 2 ? 'run_1' : null,
  data: `{"n":${seq}}`,
  prev_hash: `h${seq - 1}`,
  hash: `h${seq}`,
});

describe('migration 0024_audit_seq_rowid on sqlite', () => {
  let opened: MigrationTestDb | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  it('keys audit_events by seq itself, keeps every row, index and guard', async () => {
    opened = await openMigrationTestDb('sqlite', 'm0024');
    const { db } = opened;
    await initialMigration('sqlite').up(db);
    await auditAppendOnlyMigration('sqlite').up(db);
    await auditRetentionPrefixMigration('sqlite').up(db);
    const rows = [1, 2, 3, 4].map(event);
    // Inserted out of order, so the old table's rowids differ from seq.
    await db
      .insertInto('audit_events')
      .values([rows[3], rows[1], rows[0], rows[2]].map((row) => row ?? event(0)))
      .execute();

    await auditSeqRowidMigration('sqlite').up(db);

    expect(await db.selectFrom('audit_events').selectAll().orderBy('seq').execute()).toEqual(rows);
    // seq is the rowid: the two are one column, and no index of its own is kept for it.
    const rowids = await sql<{ r: number; s: number }>`select rowid as r, seq as s from audit_events`.execute(
      db,
    );
    expect(rowids.rows.every((row) => row.r === row.s)).toBe(true);
    const indexes = await sql<{ name: string }>`select name from sqlite_master
      where type = 'index' and tbl_name = 'audit_events' order by name`.execute(db);
    expect(indexes.rows.map((row) => row.name)).toEqual([
      'audit_actor',
      'audit_at',
      'audit_kind',
      'audit_subject',
      'sqlite_autoindex_audit_events_1',
    ]);
    await expect(sql`update audit_events set data = '{}' where seq = 2`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_events where seq = 2`.execute(db)).rejects.toThrow(/append-only/);
    await sql`insert into audit_retention_guard (id) values (1)`.execute(db);
    await expect(sql`delete from audit_events where seq = 3`.execute(db)).rejects.toThrow(/only the oldest/);
    await sql`delete from audit_events where seq <= 2`.execute(db);
    expect((await db.selectFrom('audit_events').select('seq').execute()).map((row) => row.seq)).toEqual([
      3, 4,
    ]);
  });

  it('changes nothing on postgres', async () => {
    opened = await openMigrationTestDb('postgres', 'm0024');
    const { db } = opened;
    await initialMigration('postgres').up(db);
    await db
      .insertInto('audit_events')
      .values([event(1)])
      .execute();
    await auditSeqRowidMigration('postgres').up(db);
    expect(await db.selectFrom('audit_events').select('id').execute()).toEqual([{ id: 'evt_1' }]);
  });
});
