import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../db/schema.js';

type MigrationDb = Parameters<Migration['up']>[0];

// AUTOINCREMENT keeps its counter in sqlite_sequence, a table of its own: every commit that appended a
// stream event also wrote that table's page to the WAL, one page of about fifteen a gate's commit
// writes, each fsync'd. Without it SQLite gives a new row the largest seq plus one: the same numbers,
// as nothing has ever deleted a stream event (so the counter equals the largest seq), and the trigger
// keeps it so, since a client resuming from Last-Event-ID would miss events if a seq came round again.
async function rebuildWithoutCounter(db: MigrationDb): Promise<void> {
  await sql`create table stream_events_next (
    seq integer primary key,
    type text not null,
    run_id text,
    agent_id text,
    gate_id text,
    data text not null,
    at bigint not null
  )`.execute(db);
  await sql`insert into stream_events_next (seq, type, run_id, agent_id, gate_id, data, at)
    select seq, type, run_id, agent_id, gate_id, data, at from stream_events order by seq`.execute(db);
  await sql`drop table stream_events`.execute(db);
  await sql`delete from sqlite_sequence where name = 'stream_events'`.execute(db);
  await sql`alter table stream_events_next rename to stream_events`.execute(db);
  await db.schema.createIndex('stream_run').on('stream_events').columns(['run_id', 'seq']).execute();
  await sql`create trigger stream_events_no_delete before delete on stream_events
    begin select raise(abort, 'stream events are kept: a deleted seq could be given again'); end`.execute(db);
}

/** On SQLite, stream events are numbered without AUTOINCREMENT's counter table (Postgres keeps its sequence). */
export function streamSeqRowidMigration(dialect: Dialect): Migration {
  return {
    async up(db) {
      if (dialect === 'sqlite') await rebuildWithoutCounter(db);
    },
  };
}
