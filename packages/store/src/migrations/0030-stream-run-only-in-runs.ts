import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * `stream_run` lists a run's events; an event outside any run had an entry too, under a null run no
 * query asks for, so every commit announcing a gate outside a run wrote a page of that index to the
 * WAL for nothing. It now holds runs' events only; `run_id = ?` implies `run_id is not null`, so a
 * run's stream still reads through it.
 */
export function streamRunOnlyInRunsMigration(): Migration {
  return {
    async up(db) {
      await db.schema.dropIndex('stream_run').execute();
      await db.schema
        .createIndex('stream_run')
        .on('stream_events')
        .columns(['run_id', 'seq'])
        .where(sql<boolean>`"run_id" is not null`)
        .execute();
    },
  };
}
