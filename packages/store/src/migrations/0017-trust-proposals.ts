import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Trust proposals from the decision history; an accepted one points at the remembered rule it became. */
export function trustProposalsMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('trust_proposals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('proposal_key', 'text', (c) => c.notNull())
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('scope_match', 'text', (c) => c.notNull())
        .addColumn('accepted_match', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('evidence', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_by', 'text')
        .addColumn('accepted_by', 'text')
        .addColumn('rule_id', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('policy_version', 'integer')
        .addColumn('revoked_reason', 'text')
        .execute();
      // One open proposal per agent, tool and scope: two nodes refreshing at once cannot both add it.
      await db.schema
        .createIndex('trust_proposals_open_key')
        .on('trust_proposals')
        .column('proposal_key')
        .unique()
        .where(sql.ref('status'), '=', 'proposed')
        .execute();
      await db.schema
        .createIndex('trust_proposals_rule')
        .on('trust_proposals')
        .columns(['rule_id'])
        .execute();
    },
  };
}
