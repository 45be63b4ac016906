import type { TxContext } from '../db/schema.js';
import type { SsoIdentity } from '../sso-types.js';
import { changed, int } from './rows.js';

type SsoIdentityRow = { issuer: string; subject: string; user_id: string; created_at: number | string };

function identityOf(row: SsoIdentityRow): SsoIdentity {
  return { issuer: row.issuer, subject: row.subject, userId: row.user_id, createdAt: int(row.created_at) };
}

export async function insertSsoIdentity({ db }: TxContext, identity: SsoIdentity): Promise<boolean> {
  const result = await db
    .insertInto('sso_identities')
    .values({
      issuer: identity.issuer,
      subject: identity.subject,
      user_id: identity.userId,
      created_at: identity.createdAt,
    })
    .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
    .executeTakeFirst();
  return changed(result.numInsertedOrUpdatedRows) > 0;
}

export async function getSsoIdentity(
  { db }: TxContext,
  issuer: string,
  subject: string,
): Promise<SsoIdentity | null> {
  const row = await db
    .selectFrom('sso_identities')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row ? identityOf(row) : null;
}

export async function listSsoIdentitiesOf({ db }: TxContext, userId: string): Promise<SsoIdentity[]> {
  const rows = await db
    .selectFrom('sso_identities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map(identityOf);
}
