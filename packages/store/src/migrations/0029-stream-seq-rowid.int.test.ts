import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type MigrationTestDb, openMigrationTestDb } from '../testing/migration-db.js';
import { initialMigration } from './0001-initial.js';
import { streamSeqRowidMigration } from './0029-stream-seq-rowid.js';

const event = (n: number) => ({
  type: 'gate.opened',
  run_id: n % 2 ? 'run_1' : null,
  agent_id: 'agent_a',
  gate_id: `gate_${n}`,
  data: `{"n":${n}}`,
  at: n,
});

describe('migration 0029_stream_seq_rowid', () => {
  let opened: MigrationTestDb | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  it('on sqlite keeps every event and seq, numbers new ones after them, and writes no counter', async () => {
    opened = await openMigrationTestDb('sqlite', 'm0029');
    const { db } = opened;
    await initialMigration('sqlite').up(db);
    await db.insertInto('stream_events').values([1, 2, 3].map(event)).execute();
    const before = await db.selectFrom('stream_events').selectAll().orderBy('seq').execute();

    await streamSeqRowidMigration('sqlite').up(db);

    expect(await db.selectFrom('stream_events').selectAll().orderBy('seq').execute()).toEqual(before);
    const added = await db.insertInto('stream_events').values(event(4)).returning('seq').executeTakeFirst();
    expect(added?.seq).toBe(4);
    const counters = await sql<{ name: string }>`select name from sqlite_sequence`.execute(db);
    expect(counters.rows).toEqual([]);
    const table = await sql<{
      sql: string;
    }>`select sql from sqlite_master where name = 'stream_events'`.execute(db);
    expect(table.rows[0]?.sql).not.toMatch(/autoincrement/i);
    const plan = await sql<{ detail: string }>`explain query plan
      select seq from stream_events where run_id = 'run_1' and seq > 0 order by seq`.execute(db);
    expect(plan.rows.map((row) => row.detail).join(' ')).toContain('stream_run');
    // A deleted newest event would let its seq be given again: nothing may delete one.
    await expect(sql`delete from stream_events where seq = 4`.execute(db)).rejects.toThrow(
      /stream events are kept/,
    );
  });

  it('changes nothing on postgres', async () => {
    opened = await openMigrationTestDb('postgres', 'm0029');
    const { db } = opened;
    await initialMigration('postgres').up(db);
    await db.insertInto('stream_events').values(event(1)).execute();
    await streamSeqRowidMigration('postgres').up(db);
    const added = await db.insertInto('stream_events').values(event(2)).returning('seq').executeTakeFirst();
    expect(Number(added?.seq)).toBe(2);
  });
});
