import type { Migration } from 'kysely/migration';

/** The trace context of the request that opened a gate, so its decision can end the gate's span in that trace. */
export function gateTraceContextMigration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('gates').addColumn('trace_context', 'text').execute();
    },
  };
}
