import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Dialect } from '../db/schema.js';
import { type MigrationTestDb, openMigrationTestDb } from '../testing/migration-db.js';
import { initialMigration } from './0001-initial.js';
import { streamRunOnlyInRunsMigration } from './0030-stream-run-only-in-runs.js';

const event = (gateId: string, runId: string | null) => ({
  type: 'gate.opened',
  run_id: runId,
  agent_id: 'agent_a',
  gate_id: gateId,
  data: '{}',
  at: 1,
});

/** The index's definition as the engine keeps it. */
async function definitionOf({ db, schema }: MigrationTestDb, dialect: Dialect): Promise<string | undefined> {
  const index = 'stream_run';
  const rows =
    dialect === 'sqlite'
      ? await sql<{ text: string }>`select sql as text from sqlite_master where name = ${index}`.execute(db)
      : await sql<{ text: string }>`select indexdef as text from pg_indexes
          where indexname = ${index} and schemaname = ${schema}`.execute(db);
  return rows.rows[0]?.text;
}

/** The indexes SQLite would read `query` through. */
async function sqlitePlan(db: MigrationTestDb['db'], query: ReturnType<typeof sql>): Promise<string> {
  const plan = await sql<{ detail: string }>`explain query plan ${query}`.execute(db);
  return plan.rows.map((row) => row.detail).join(' ');
}

describe.each(['sqlite', 'postgres'] as const)('migration 0030_stream_run_only_in_runs on %s', (dialect) => {
  let opened: MigrationTestDb | null = null;
  afterEach(async () => {
    await opened?.close();
    opened = null;
  });

  it("keeps a run's events in stream_run, in order, and leaves the rest out of it", async () => {
    opened = await openMigrationTestDb(dialect, 'm0030');
    const { db } = opened;
    await initialMigration(dialect).up(db);
    await db
      .insertInto('stream_events')
      .values([event('gate_1', 'run_1'), event('gate_3', null), event('gate_2', 'run_1')])
      .execute();

    await streamRunOnlyInRunsMigration().up(db);

    const events = await db
      .selectFrom('stream_events')
      .select('gate_id')
      .where('run_id', '=', 'run_1')
      .where('seq', '>', 0)
      .orderBy('seq')
      .execute();
    expect(events.map((row) => row.gate_id)).toEqual(['gate_1', 'gate_2']);
    expect(await definitionOf(opened, dialect)).toMatch(/where \(?"?run_id"? is not null\)?$/i);
    if (dialect === 'sqlite') {
      expect(
        await sqlitePlan(
          db,
          sql`select seq from stream_events where run_id = 'run_1' and seq > 0 order by seq`,
        ),
      ).toContain('stream_run');
    }
  });
});
