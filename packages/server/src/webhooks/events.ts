import { type AuditEvent, containsHiddenCharacters } from 'gatehouse-hitl-core';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from 'gatehouse-hitl-protocol';
import type { OutboxEvent } from 'gatehouse-hitl-store';

const ANNOUNCED = new Set<string>(WEBHOOK_EVENT_TYPES);

/** A timeout that approves is a decision, the way the event streams show it too. */
const ALIASES: Readonly<Record<string, WebhookEventType>> = { 'gate.auto_approved': 'gate.decided' };

/** The webhook event an audit kind is announced as, or null when webhooks do not hear of it. */
export function webhookEventTypeOf(kind: string): WebhookEventType | null {
  if (ANNOUNCED.has(kind)) return kind as WebhookEventType;
  return ALIASES[kind] ?? null;
}

/** The JSON document every delivery of one event carries, byte for byte. */
export interface WebhookEventBody {
  /** Stable event id: the id of the audit event it announces. */
  id: string;
  type: WebhookEventType;
  /** Epoch ms, the database's clock at the change. */
  createdAt: number;
  actor: string;
  subject: string | null;
  /** The facts the audit trail records for it (never a secret). */
  data: Record<string, unknown>;
  /** Present when a human-text field of `data` held hidden characters (shown there as `⟨U+…⟩`), so a receiver can warn. */
  hiddenCharacters?: true;
}

/** Fields of audit data written for people to read, as opposed to ids, codes and numbers. */
const HUMAN_TEXT_FIELDS = [
  'title',
  'summary',
  'reason',
  'instruction',
  'instructions',
  'feedback',
  'comment',
];

function hasHiddenText(data: Record<string, unknown>): boolean {
  return HUMAN_TEXT_FIELDS.some(
    (field) => Object.hasOwn(data, field) && containsHiddenCharacters(data[field]),
  );
}

/** The outbox event for an audited change, or null when no webhook can hear of that kind. */
export function outboxEventOf(audited: AuditEvent): OutboxEvent | null {
  const type = webhookEventTypeOf(audited.kind);
  if (type === null) return null;
  const body: WebhookEventBody = {
    id: audited.id,
    type,
    createdAt: audited.at,
    actor: audited.actor,
    subject: audited.subject,
    data: audited.data,
    ...(hasHiddenText(audited.data) ? { hiddenCharacters: true as const } : {}),
  };
  return { id: audited.id, type, payload: JSON.stringify(body), createdAt: audited.at };
}
