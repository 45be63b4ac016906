import type { Migration } from 'kysely/migration';

/**
 * Every gated request looks for a remembered rule of its tool that lets it through: the rules of one
 * tool, oldest first, without reading every rule the team ever remembered.
 */
export function rememberedRulesByToolMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createIndex('remembered_rules_tool')
        .on('remembered_rules')
        .columns(['tool', 'created_at', 'id'])
        .execute();
    },
  };
}
