import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Every gate that opens or ends on a run counts the run's pending gates to settle the run's status.
 * Through `gates_run` that read every gate the run ever had, so a long run paid more for each new
 * gate; this index holds only the pending gates of runs, so the count reads the few still waiting,
 * and a gate outside any run never writes to it. The status is a literal: a query can use a partial
 * index only when its own condition names the same value (`run_id = ?` implies `is not null`).
 */
export function pendingGatesByRunMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createIndex('gates_pending_run')
        .on('gates')
        .column('run_id')
        .where(sql<boolean>`"status" = 'pending' and "run_id" is not null`)
        .execute();
    },
  };
}
