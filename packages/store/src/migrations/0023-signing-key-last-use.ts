import type { Migration } from 'kysely/migration';

/** When each signing key last signed a decision that verified, so people can tell an idle key. */
export function signingKeyLastUseMigration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('signing_keys').addColumn('last_used_at', 'bigint').execute();
    },
  };
}
