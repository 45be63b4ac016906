import { type Gate, type RoutedPerson, routeNotice } from 'gatehouse-hitl-core';
import type { NotificationPreferenceRecord, NotificationTriggerRecord, StoreTx } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { NotificationTrigger } from './channel.js';
import { configuredChannels } from './channels.js';

const BATCH = 100;

/** Triggers that ask someone to act: pointless once the gate has ended. */
const ACTION_TRIGGERS = new Set(['gate.opened', 'gate.timeout_warning', 'gate.escalated', 'gate.assigned']);

async function peopleOf(tx: StoreTx): Promise<RoutedPerson[]> {
  const preferences = new Map<string, NotificationPreferenceRecord>();
  for (const preference of await tx.listNotificationPreferences())
    preferences.set(preference.userId, preference);
  return (await tx.listUsers()).map((user) => ({
    id: user.id,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    channels: preferences.get(user.id)?.channels ?? null,
  }));
}

async function routeTrigger(
  ctx: AppContext,
  tx: StoreTx,
  trigger: NotificationTriggerRecord,
  people: RoutedPerson[],
): Promise<number> {
  const stored = await tx.getGate(trigger.gateId);
  if (stored === null) return 0;
  const gate: Gate = stored;
  if (ACTION_TRIGGERS.has(trigger.trigger) && gate.status !== 'pending') return 0;
  const routes = routeNotice({
    trigger: trigger.trigger as NotificationTrigger,
    gate,
    rules: await tx.listNotificationRules(),
    people,
    notifiedBefore: await tx.listNotifiedOf(gate.id),
    channels: configuredChannels(ctx),
  });
  for (const route of routes) {
    await tx.insertNotification({
      id: ctx.ids.next('ntf'),
      triggerId: trigger.id,
      trigger: trigger.trigger,
      gateId: gate.id,
      userId: route.userId,
      channel: route.channel,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: tx.now,
      claimedUntil: null,
      lastError: null,
      ref: null,
      data: trigger.data,
      createdAt: tx.now,
      updatedAt: tx.now,
      sentAt: null,
    });
  }
  return routes.length;
}

/**
 * Turns queued triggers into one notification per person and channel, in one transaction; on
 * Postgres the triggers are locked as they are read, so each is routed by exactly one node.
 * Returns how many triggers it handled.
 */
export async function dispatchTriggers(ctx: AppContext): Promise<number> {
  return ctx.store.transaction(async (tx) => {
    const triggers = await tx.claimNotificationTriggers(BATCH);
    if (triggers.length === 0) return 0;
    const people = await peopleOf(tx);
    for (const trigger of triggers) await routeTrigger(ctx, tx, trigger, people);
    await tx.deleteNotificationTriggers(triggers.map((trigger) => trigger.id));
    return triggers.length;
  });
}

/**
 * Queues a timeout warning for each pending gate whose deadline is near (10 minutes before it,
 * or with a fifth of the wait left when that is sooner), once per gate and deadline across nodes.
 */
export async function queueTimeoutWarnings(ctx: AppContext): Promise<number> {
  // A read first: an idle node polls without writing.
  if ((await ctx.store.read((tx) => tx.listWarningDueGates(1))).length === 0) return 0;
  return ctx.store.transaction(async (tx) => {
    let queued = 0;
    for (const due of await tx.listWarningDueGates(BATCH)) {
      if (!(await tx.markTimeoutWarned(due.gateId, due.timeoutAt))) continue;
      await tx.insertNotificationTrigger({
        id: ctx.ids.next('ntw'),
        trigger: 'gate.timeout_warning',
        gateId: due.gateId,
        data: JSON.stringify({ actor: 'system:timeout', timeoutAt: due.timeoutAt }),
        createdAt: tx.now,
      });
      queued += 1;
    }
    return queued;
  });
}
