import type { TxContext } from '../db/schema.js';
import type { SlackUserLink } from '../slack-types.js';
import { changed, int } from './rows.js';

type SlackUserRow = {
  user_id: string;
  slack_user_id: string;
  created_by: string;
  created_at: number | string;
};

function linkOf(row: SlackUserRow): SlackUserLink {
  return {
    userId: row.user_id,
    slackUserId: row.slack_user_id,
    createdBy: row.created_by,
    createdAt: int(row.created_at),
  };
}

export async function putSlackUser({ db }: TxContext, link: SlackUserLink): Promise<void> {
  const values = {
    user_id: link.userId,
    slack_user_id: link.slackUserId,
    created_by: link.createdBy,
    created_at: link.createdAt,
  };
  await db
    .insertInto('slack_users')
    .values(values)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        slack_user_id: link.slackUserId,
        created_by: link.createdBy,
        created_at: link.createdAt,
      }),
    )
    .execute();
}

export async function deleteSlackUser({ db }: TxContext, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('slack_users').where('user_id', '=', userId).executeTakeFirst();
  return changed(result.numDeletedRows) > 0;
}

export async function getSlackUser({ db }: TxContext, userId: string): Promise<SlackUserLink | null> {
  const row = await db.selectFrom('slack_users').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return row ? linkOf(row) : null;
}

export async function getSlackUserBySlackId(
  { db }: TxContext,
  slackUserId: string,
): Promise<SlackUserLink | null> {
  const row = await db
    .selectFrom('slack_users')
    .selectAll()
    .where('slack_user_id', '=', slackUserId)
    .executeTakeFirst();
  return row ? linkOf(row) : null;
}

export async function claimSlackRequest(
  { db }: TxContext,
  signature: string,
  seenAt: number,
  forgetBefore: number,
): Promise<boolean> {
  await db.deleteFrom('slack_seen_requests').where('seen_at', '<', forgetBefore).execute();
  const result = await db
    .insertInto('slack_seen_requests')
    .values({ signature, seen_at: seenAt })
    .onConflict((oc) => oc.column('signature').doNothing())
    .executeTakeFirst();
  return changed(result.numInsertedOrUpdatedRows) > 0;
}
