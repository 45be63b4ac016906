import type { Migration } from 'kysely/migration';

/**
 * A rejected, steered or edited call looks for the accepted proposals of its agent that it revokes:
 * those of one agent, without reading every proposal the team ever accepted.
 */
export function trustProposalsByAgentMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createIndex('trust_proposals_agent')
        .on('trust_proposals')
        .columns(['agent_id', 'status'])
        .execute();
    },
  };
}
