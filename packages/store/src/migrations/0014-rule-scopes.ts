import type { Migration } from 'kysely/migration';

/**
 * What a remembered "approve always" rule covers within its tool (core's StandingScope, as JSON).
 * Rules stored before it have none and are read as the whole tool, which covers no call that
 * carries a command or paths.
 */
export function ruleScopesMigration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('remembered_rules').addColumn('scope_match', 'text').execute();
    },
  };
}
