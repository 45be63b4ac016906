import type { Migration } from 'kysely/migration';

/** Trust proposals of a second kind: one autonomy level up for an agent, from its phase reviews. */
export function autonomyProposalsMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .alterTable('trust_proposals')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('scope'))
        .execute();
      await db.schema.alterTable('trust_proposals').addColumn('autonomy', 'text').execute();
    },
  };
}
