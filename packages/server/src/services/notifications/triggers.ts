import type { AuditEvent } from 'gatehouse-hitl-core';
import type { NotificationsRepo } from 'gatehouse-hitl-store';
import type { NotificationTrigger } from './channel.js';

/** The audit kinds people hear of, and the trigger each becomes; an auto-approval is a decision. */
const TRIGGER_OF: Readonly<Record<string, NotificationTrigger>> = {
  'gate.opened': 'gate.opened',
  'gate.escalated': 'gate.escalated',
  'gate.assigned': 'gate.assigned',
  'gate.decided': 'gate.decided',
  'gate.auto_approved': 'gate.decided',
  'gate.expired': 'gate.expired',
  'gate.cancelled': 'gate.cancelled',
};

/** The notification trigger an audit kind is, or null. */
export function notificationTriggerOf(kind: string): NotificationTrigger | null {
  return Object.hasOwn(TRIGGER_OF, kind) ? (TRIGGER_OF[kind] ?? null) : null;
}

/**
 * Queues the notification trigger an audited gate change announces, in the change's own transaction,
 * so people hear of exactly the changes that committed. True when something was queued.
 */
export async function recordNotificationTrigger(
  tx: NotificationsRepo,
  audited: AuditEvent,
): Promise<boolean> {
  const trigger = notificationTriggerOf(audited.kind);
  if (trigger === null || audited.subject === null) return false;
  await tx.insertNotificationTrigger({
    id: audited.id,
    trigger,
    gateId: audited.subject,
    data: JSON.stringify({ actor: audited.actor, ...audited.data }),
    createdAt: audited.at,
  });
  return true;
}
