import type { Selectable } from 'kysely';
import type { NotificationsTable } from '../db/notification-tables.js';
import type { TxContext } from '../db/schema.js';
import type {
  ClaimedNotification,
  NotificationChannelName,
  NotificationFilter,
  NotificationOutcome,
  NotificationRecord,
  NotificationStatus,
} from '../notification-types.js';
import { changed, decodeCursor, int, intOrNull, pageLimit, toPage } from './rows.js';

function toNotification(row: Selectable<NotificationsTable>): NotificationRecord {
  return {
    id: row.id,
    triggerId: row.trigger_id,
    trigger: row.trigger,
    gateId: row.gate_id,
    userId: row.user_id,
    channel: row.channel as NotificationChannelName,
    status: row.status as NotificationStatus,
    attempts: int(row.attempts),
    nextAttemptAt: intOrNull(row.next_attempt_at),
    claimedUntil: intOrNull(row.claimed_until),
    lastError: row.last_error,
    ref: row.ref,
    data: row.data,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
    sentAt: intOrNull(row.sent_at),
  };
}

export async function insertNotification({ db }: TxContext, n: NotificationRecord): Promise<void> {
  await db
    .insertInto('notifications')
    .values({
      id: n.id,
      trigger_id: n.triggerId,
      trigger: n.trigger,
      gate_id: n.gateId,
      user_id: n.userId,
      channel: n.channel,
      status: n.status,
      attempts: n.attempts,
      next_attempt_at: n.nextAttemptAt,
      claim_token: null,
      claimed_until: null,
      last_error: n.lastError,
      ref: n.ref,
      data: n.data,
      created_at: n.createdAt,
      updated_at: n.updatedAt,
      sent_at: n.sentAt,
    })
    .execute();
}

export async function getNotification({ db }: TxContext, id: string): Promise<NotificationRecord | null> {
  const row = await db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toNotification(row) : null;
}

export async function listNotifications(
  { db }: TxContext,
  filter: NotificationFilter,
): Promise<{ items: NotificationRecord[]; nextCursor: string | null }> {
  const limit = pageLimit(filter.limit);
  let query = db.selectFrom('notifications').selectAll();
  if (filter.gateId !== undefined) query = query.where('gate_id', '=', filter.gateId);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.cursor !== undefined) {
    const [at, id] = decodeCursor(filter.cursor, ['number', 'string'] as const);
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]),
    );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, toNotification, (row) => [int(row.created_at), row.id]);
}

export async function countNotifications({
  db,
}: TxContext): Promise<{ channel: NotificationChannelName; status: NotificationStatus; count: number }[]> {
  const rows = await db
    .selectFrom('notifications')
    .select((eb) => ['channel', 'status', eb.fn.countAll().as('count')])
    .groupBy(['channel', 'status'])
    .orderBy('channel')
    .orderBy('status')
    .execute();
  return rows.map((row) => ({
    channel: row.channel as NotificationChannelName,
    status: row.status as NotificationStatus,
    count: int(row.count),
  }));
}

export async function listNotifiedOf(
  { db }: TxContext,
  gateId: string,
): Promise<{ userId: string; channel: NotificationChannelName }[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(['user_id', 'channel'])
    .distinct()
    .where('gate_id', '=', gateId)
    .where('status', 'in', ['sent', 'pending'])
    .orderBy('user_id')
    .orderBy('channel')
    .execute();
  return rows.map((row) => ({ userId: row.user_id, channel: row.channel as NotificationChannelName }));
}

export async function hasNotificationWork({ db }: TxContext, dueBy: number): Promise<boolean> {
  const trigger = await db.selectFrom('notification_triggers').select('id').limit(1).executeTakeFirst();
  if (trigger !== undefined) return true;
  const due = await db
    .selectFrom('notifications')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', dueBy)
    .limit(1)
    .executeTakeFirst();
  return due !== undefined;
}

const threadKey = (gateId: string, userId: string, channel: string) =>
  JSON.stringify([gateId, userId, channel]);

/**
 * The ref of the last notice sent to each person on each channel about each gate the rows name, in
 * one statement: a claim of 40 notices reads them once instead of once per notice.
 */
async function previousRefsOf(
  { db }: TxContext,
  rows: Selectable<NotificationsTable>[],
): Promise<Map<string, string>> {
  const gateIds = [...new Set(rows.map((row) => row.gate_id))];
  const sent = await db
    .selectFrom('notifications')
    .select(['gate_id', 'user_id', 'channel', 'ref'])
    .where('gate_id', 'in', gateIds)
    .where('status', '=', 'sent')
    .where('ref', 'is not', null)
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const refs = new Map<string, string>();
  for (const row of sent) {
    const key = threadKey(row.gate_id, row.user_id, row.channel);
    if (row.ref !== null && !refs.has(key)) refs.set(key, row.ref);
  }
  return refs;
}

export async function claimNotifications(
  ctx: TxContext,
  options: { limit: number; leaseMs: number; token: string },
): Promise<ClaimedNotification[]> {
  const { db, now } = ctx;
  const rows = await db
    .selectFrom('notifications as n')
    .selectAll('n')
    .where('n.status', '=', 'pending')
    .where('n.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('n.claimed_until', 'is', null), eb('n.claimed_until', '<=', now)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications as e')
            .select('e.id')
            .whereRef('e.gate_id', '=', 'n.gate_id')
            .whereRef('e.user_id', '=', 'n.user_id')
            .whereRef('e.channel', '=', 'n.channel')
            .where('e.status', '=', 'pending')
            .where((eb) =>
              eb.or([
                eb('e.created_at', '<', eb.ref('n.created_at')),
                eb.and([eb('e.created_at', '=', eb.ref('n.created_at')), eb('e.id', '<', eb.ref('n.id'))]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('n.next_attempt_at')
    .orderBy('n.id')
    .limit(pageLimit(options.limit))
    .$if(ctx.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
    .execute();
  if (rows.length === 0) return [];
  const claimedUntil = now + options.leaseMs;
  await db
    .updateTable('notifications')
    .set((eb) => ({
      claim_token: options.token,
      claimed_until: claimedUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  // A claimed row is pending, never sent, so it is not its own previous notice.
  const refs = await previousRefsOf(ctx, rows);
  return rows.map((row) => ({
    ...toNotification(row),
    attempts: int(row.attempts) + 1,
    claimedUntil,
    updatedAt: now,
    claimToken: options.token,
    previousRef: refs.get(threadKey(row.gate_id, row.user_id, row.channel)) ?? null,
  }));
}

export async function finishNotification(
  { db, now }: TxContext,
  id: string,
  token: string,
  outcome: NotificationOutcome,
): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({
      status: outcome.status,
      next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      claim_token: null,
      claimed_until: null,
      last_error: outcome.status === 'sent' ? null : outcome.error,
      ...(outcome.status === 'sent' ? { ref: outcome.ref, sent_at: now } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

export async function releaseNotification(
  { db, now }: TxContext,
  id: string,
  token: string,
): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set((eb) => ({
      claim_token: null,
      claimed_until: null,
      attempts: eb('attempts', '-', 1),
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}
