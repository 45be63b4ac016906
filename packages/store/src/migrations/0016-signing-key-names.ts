import type { Migration } from 'kysely/migration';

/** A name a person gives each of their signing keys ("Work laptop") so they can tell them apart. */
export function signingKeyNamesMigration(): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('signing_keys').addColumn('name', 'text').execute();
    },
  };
}
