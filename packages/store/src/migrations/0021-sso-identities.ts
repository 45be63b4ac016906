import type { Migration } from 'kysely/migration';

/** Which person an OpenID provider's subject signs in as: one account per (issuer, subject). */
export function ssoIdentitiesMigration(): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('sso_identities')
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sso_identities_pk', ['issuer', 'subject'])
        .execute();
      await db.schema.createIndex('sso_identities_user').on('sso_identities').columns(['user_id']).execute();
    },
  };
}
