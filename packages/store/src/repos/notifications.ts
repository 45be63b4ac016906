import { type Selectable, sql } from 'kysely';
import type { NotificationRulesTable } from '../db/notification-tables.js';
import type { TxContext } from '../db/schema.js';
import type {
  NotificationChannelName,
  NotificationPreferenceRecord,
  NotificationRuleRecord,
  NotificationTriggerRecord,
  WarningDueGate,
} from '../notification-types.js';
import { changed, int, pageLimit, parseJson } from './rows.js';

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

/** Forgets a link's use, so the person can send the link's form again (their decision was not recorded). */
export async function releaseEmailActionLink({ db }: TxContext, linkId: string): Promise<void> {
  await db.deleteFrom('email_action_uses').where('link_id', '=', linkId).execute();
}
