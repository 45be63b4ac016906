import type { GateCatalog } from 'gatehouse-hitl-core';
import type { GateDocument, NOTIFICATION_CHANNELS } from 'gatehouse-hitl-protocol';
import type { ServerConfig } from '../../config.js';
import type { AppContext } from '../../context.js';

/** The ways a person can hear of a gate (the protocol's list). `browser` is the web app's own desktop notification, fed by the event stream. */
export type NotificationChannelKind = (typeof NOTIFICATION_CHANNELS)[number];

/** What happened to a gate that someone may need to hear of. */
export type NotificationTrigger =
  | 'gate.opened'
  | 'gate.timeout_warning'
  | 'gate.escalated'
  | 'gate.assigned'
  | 'gate.decided'
  | 'gate.expired'
  | 'gate.cancelled';

/** The person a notice is for, with the addresses each channel needs. */
export interface NotificationRecipient {
  userId: string;
  displayName: string;
  role: string;
  email: string | null;
  slackUserId: string | null;
}

/** One notice for one person on one channel. */
export interface GateNotice {
  notificationId: string;
  trigger: NotificationTrigger;
  gate: GateDocument;
  recipient: NotificationRecipient;
  /** What this channel returned when it last told this person of this gate (a Slack message's channel+ts), so it can update that message instead of sending another. */
  previousRef: string | null;
  /** Absolute URL of the gate's page in the web app. */
  gateUrl: string;
  /** Who decided and how, for `gate.decided`. */
  outcome?: { option: string; decidedBy: string; reason: string | null } | undefined;
}

/** A notice about review itself (the rubber-stamping alert, the digest): no gate, a subject and plain text. */
export interface ReviewNotice {
  notificationId: string;
  trigger: string;
  recipient: NotificationRecipient;
  subject: string;
  text: string;
  /** Absolute URL of the Review health screen. */
  url: string;
}

export type ChannelDelivery =
  | { ok: true; ref: string | null }
  /** `retryAfterMs`: the service asked to wait at least this long before the next attempt. */
  | { ok: false; error: string; retryable: boolean; retryAfterMs?: number };

/** A way of reaching people; the notification worker calls `deliver` once per attempt. */
export interface NotificationChannel {
  readonly kind: NotificationChannelKind;
  /** False when the channel is not configured on this server (no SMTP URL, no Slack token). */
  readonly enabled: boolean;
  deliver(notice: GateNotice): Promise<ChannelDelivery>;
  /** Delivers a notice about review itself; a channel without it refuses such notices. */
  deliverReview?(notice: ReviewNotice): Promise<ChannelDelivery>;
  /** Lets go of open connections once the worker has stopped; the channel opens them again when used. */
  close?(): Promise<void>;
}

/**
 * One channel the notification worker delivers through: a folder under `channels/` exports one,
 * and `channels/index.ts` lists it (docs/notifications.md, "Adding a channel").
 */
export interface NotificationChannelDefinition {
  readonly name: NotificationChannelKind;
  /** Whether this server's config turns the channel on (an SMTP URL, a bot token); notices are routed only to such channels. */
  isConfigured(config: ServerConfig): boolean;
  /** Builds the channel once per app. */
  /** `catalog` holds the gate types whose own briefings name a gate, as its page does. */
  create(ctx: AppContext, catalog: GateCatalog): Pick<NotificationChannel, 'deliver' | 'deliverReview'>;
}
