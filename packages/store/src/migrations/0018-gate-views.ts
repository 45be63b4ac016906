import type { Migration } from 'kysely/migration';

/** Which parts of a gate (diff, arguments, findings) each person opened, first time only. */
export function gateViewsMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('gate_views')
        .addColumn('gate_id', 'text', (c) => c.notNull().references('gates.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('part', 'text', (c) => c.notNull())
        .addColumn('viewed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('gate_views_pk', ['gate_id', 'user_id', 'part'])
        .execute();
    },
  };
}
