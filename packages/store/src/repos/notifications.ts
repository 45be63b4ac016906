import { type Selectable, sql } from 'kysely';
import type { NotificationRulesTable, NotificationsTable } from '../db/notification-tables.js';
import type { TxContext } from '../db/schema.js';
import type {
  ClaimedNotification,
  NotificationChannelName,
  NotificationFilter,
  NotificationOutcome,
  NotificationPreferenceRecord,
  NotificationRecord,
  NotificationRuleRecord,
  NotificationStatus,
  NotificationTriggerRecord,
  WarningDueGate,
} from '../notification-types.js';
import { changed, decodeCursor, int, intOrNull, pageLimit, parseJson, toPage } from './rows.js';

/** A warning is due 10 minutes before the deadline, or with a fifth of the wait left when that is sooner. */
const WARNING_LEAD_MS = 10 * 60_000;

function toRule(row: Selectable<NotificationRulesTable>): NotificationRuleRecord {
  return {
    id: row.id,
    name: row.name,
    gateTypes: parseJson<string[]>(row.gate_types),
    risks: parseJson<string[]>(row.risks),
    agentIds: parseJson<string[]>(row.agent_ids),
    roles: parseJson<string[]>(row.roles),
    assigneesOnly: Number(row.assignees_only) === 1,
    triggers: parseJson<string[]>(row.triggers),
    channels: parseJson<NotificationChannelName[]>(row.channels),
    enabled: Number(row.enabled) === 1,
    createdBy: row.created_by,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

function ruleColumns(rule: NotificationRuleRecord) {
  return {
    name: rule.name,
    gate_types: JSON.stringify(rule.gateTypes),
    risks: JSON.stringify(rule.risks),
    agent_ids: JSON.stringify(rule.agentIds),
    roles: JSON.stringify(rule.roles),
    assignees_only: rule.assigneesOnly ? 1 : 0,
    triggers: JSON.stringify(rule.triggers),
    channels: JSON.stringify(rule.channels),
    enabled: rule.enabled ? 1 : 0,
    updated_at: rule.updatedAt,
  };
}

export async function insertNotificationRule({ db }: TxContext, rule: NotificationRuleRecord): Promise<void> {
  await db
    .insertInto('notification_rules')
    .values({ id: rule.id, created_by: rule.createdBy, created_at: rule.createdAt, ...ruleColumns(rule) })
    .execute();
}

export async function updateNotificationRule(
  { db }: TxContext,
  rule: NotificationRuleRecord,
): Promise<boolean> {
  const result = await db
    .updateTable('notification_rules')
    .set(ruleColumns(rule))
    .where('id', '=', rule.id)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

export async function deleteNotificationRule({ db }: TxContext, id: string): Promise<boolean> {
  const result = await db.deleteFrom('notification_rules').where('id', '=', id).executeTakeFirst();
  return changed(result.numDeletedRows) === 1;
}

export async function getNotificationRule(
  { db }: TxContext,
  id: string,
): Promise<NotificationRuleRecord | null> {
  const row = await db.selectFrom('notification_rules').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRule(row) : null;
}

export async function listNotificationRules({ db }: TxContext): Promise<NotificationRuleRecord[]> {
  const rows = await db
    .selectFrom('notification_rules')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRule);
}

function toPreference(row: {
  user_id: string;
  channels: string;
  email: string | null;
  updated_at: number;
}): NotificationPreferenceRecord {
  return {
    userId: row.user_id,
    channels: parseJson<NotificationChannelName[]>(row.channels),
    email: row.email,
    updatedAt: int(row.updated_at),
  };
}

export async function getNotificationPreference(
  { db }: TxContext,
  userId: string,
): Promise<NotificationPreferenceRecord | null> {
  const row = await db
    .selectFrom('notification_preferences')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toPreference(row) : null;
}

export async function listNotificationPreferences({
  db,
}: TxContext): Promise<NotificationPreferenceRecord[]> {
  const rows = await db.selectFrom('notification_preferences').selectAll().orderBy('user_id').execute();
  return rows.map(toPreference);
}

export async function putNotificationPreference(
  { db }: TxContext,
  preference: NotificationPreferenceRecord,
): Promise<void> {
  const row = {
    channels: JSON.stringify(preference.channels),
    email: preference.email,
    updated_at: preference.updatedAt,
  };
  await db
    .insertInto('notification_preferences')
    .values({ user_id: preference.userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

export async function insertNotificationTrigger(
  { db }: TxContext,
  trigger: NotificationTriggerRecord,
): Promise<void> {
  await db
    .insertInto('notification_triggers')
    .values({
      id: trigger.id,
      trigger: trigger.trigger,
      gate_id: trigger.gateId,
      data: trigger.data,
      created_at: trigger.createdAt,
    })
    .execute();
}

export async function claimNotificationTriggers(
  ctx: TxContext,
  limit: number,
): Promise<NotificationTriggerRecord[]> {
  const rows = await ctx.db
    .selectFrom('notification_triggers')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(pageLimit(limit))
    .$if(ctx.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
    .execute();
  return rows.map((row) => ({
    id: row.id,
    trigger: row.trigger,
    gateId: row.gate_id,
    data: row.data,
    createdAt: int(row.created_at),
  }));
}

export async function deleteNotificationTriggers({ db }: TxContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('notification_triggers').where('id', 'in', ids).execute();
}

export async function listWarningDueGates({ db, now }: TxContext, limit: number): Promise<WarningDueGate[]> {
  const rows = await db
    .selectFrom('gates')
    .select(['id', 'timeout_at'])
    .where('status', '=', 'pending')
    .where('timeout_at', 'is not', null)
    .where('timeout_at', '>', now)
    .where('timeout_at', '<=', now + WARNING_LEAD_MS)
    .where(sql<boolean>`5 * (timeout_at - ${now}) <= (timeout_at - created_at)`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notification_warnings as w')
            .select('w.gate_id')
            .whereRef('w.gate_id', '=', 'gates.id')
            .whereRef('w.timeout_at', '=', 'gates.timeout_at'),
        ),
      ),
    )
    .orderBy('timeout_at')
    .limit(pageLimit(limit))
    .execute();
  return rows.map((row) => ({ gateId: row.id, timeoutAt: int(row.timeout_at) }));
}

export async function markTimeoutWarned(
  { db }: TxContext,
  gateId: string,
  timeoutAt: number,
): Promise<boolean> {
  const result = await db
    .insertInto('notification_warnings')
    .values({ gate_id: gateId, timeout_at: timeoutAt })
    .onConflict((oc) => oc.columns(['gate_id', 'timeout_at']).doNothing())
    .executeTakeFirst();
  return changed(result.numInsertedOrUpdatedRows) === 1;
}

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

async function previousRefOf({ db }: TxContext, n: Selectable<NotificationsTable>): Promise<string | null> {
  const row = await db
    .selectFrom('notifications')
    .select('ref')
    .where('gate_id', '=', n.gate_id)
    .where('user_id', '=', n.user_id)
    .where('channel', '=', n.channel)
    .where('status', '=', 'sent')
    .where('ref', 'is not', null)
    .where('id', '!=', n.id)
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.ref ?? null;
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
  const claimed: ClaimedNotification[] = [];
  for (const row of rows) {
    claimed.push({
      ...toNotification(row),
      attempts: int(row.attempts) + 1,
      claimedUntil,
      updatedAt: now,
      claimToken: options.token,
      previousRef: await previousRefOf(ctx, row),
    });
  }
  return claimed;
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

export async function ensureNotificationSecret(
  { db }: TxContext,
  name: string,
  candidate: string,
): Promise<string> {
  await db
    .insertInto('notification_secrets')
    .values({ name, value: candidate })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('notification_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

export async function isEmailActionLinkUsed({ db }: TxContext, linkId: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_action_uses')
    .select('link_id')
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function useEmailActionLink(
  { db, now }: TxContext,
  linkId: string,
  gateId: string,
  userId: string,
): Promise<boolean> {
  const result = await db
    .insertInto('email_action_uses')
    .values({ link_id: linkId, gate_id: gateId, user_id: userId, used_at: now })
    .onConflict((oc) => oc.column('link_id').doNothing())
    .executeTakeFirst();
  return changed(result.numInsertedOrUpdatedRows) === 1;
}
