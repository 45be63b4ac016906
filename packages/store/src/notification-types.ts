import type { NOTIFICATION_CHANNELS } from 'gatehouse-hitl-protocol';

/** A channel a notification goes out on. */
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS)[number];

/** Who hears of which gates, on which channels (docs/notifications.md). Empty lists match everything. */
export interface NotificationRuleRecord {
  id: string;
  name: string;
  gateTypes: string[];
  risks: string[];
  agentIds: string[];
  /** Roles of the people it tells; empty = everyone who may decide the gate. */
  roles: string[];
  /** Only the gate's assignees, when it has any. */
  assigneesOnly: boolean;
  triggers: string[];
  channels: NotificationChannelName[];
  enabled: boolean;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

/** A person's own choices: which channels reach them, and their addresses. */
export interface NotificationPreferenceRecord {
  userId: string;
  channels: NotificationChannelName[];
  email: string | null;
  updatedAt: number;
}

/** A gate change waiting to be routed, written in the same transaction as its audit event. */
export interface NotificationTriggerRecord {
  id: string;
  trigger: string;
  gateId: string;
  /** JSON facts of the change (who decided, how). */
  data: string;
  createdAt: number;
}

export type NotificationStatus = 'pending' | 'sent' | 'failed';

/** One notice to one person on one channel, with its delivery outcome. */
export interface NotificationRecord {
  id: string;
  triggerId: string;
  trigger: string;
  gateId: string;
  userId: string;
  channel: NotificationChannelName;
  status: NotificationStatus;
  attempts: number;
  nextAttemptAt: number | null;
  claimedUntil: number | null;
  lastError: string | null;
  /** What the channel returned (an email's Message-ID, a Slack message's channel+ts). */
  ref: string | null;
  /** JSON facts of the change, as the trigger had them. */
  data: string;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
}

export interface ClaimedNotification extends NotificationRecord {
  claimToken: string;
  /** The ref of the latest notice this person got on this channel for this gate. */
  previousRef: string | null;
}

export interface NotificationFilter {
  gateId?: string;
  userId?: string;
  status?: NotificationStatus;
  limit?: number;
  cursor?: string;
}

export type NotificationOutcome =
  | { status: 'sent'; ref: string | null }
  | { status: 'pending'; nextAttemptAt: number; error: string }
  | { status: 'failed'; error: string };

/** A pending gate whose timeout warning is due. */
export interface WarningDueGate {
  gateId: string;
  timeoutAt: number;
}

/** Notification rules, preferences, the trigger queue, deliveries and emailed links' uses. */
export interface NotificationsRepo {
  insertNotificationRule(rule: NotificationRuleRecord): Promise<void>;
  updateNotificationRule(rule: NotificationRuleRecord): Promise<boolean>;
  deleteNotificationRule(id: string): Promise<boolean>;
  getNotificationRule(id: string): Promise<NotificationRuleRecord | null>;
  listNotificationRules(): Promise<NotificationRuleRecord[]>;
  getNotificationPreference(userId: string): Promise<NotificationPreferenceRecord | null>;
  listNotificationPreferences(): Promise<NotificationPreferenceRecord[]>;
  putNotificationPreference(preference: NotificationPreferenceRecord): Promise<void>;
  insertNotificationTrigger(trigger: NotificationTriggerRecord): Promise<void>;
  /** Oldest first; on Postgres the rows are locked (SKIP LOCKED), so two nodes never route one twice. */
  claimNotificationTriggers(limit: number): Promise<NotificationTriggerRecord[]>;
  deleteNotificationTriggers(ids: string[]): Promise<void>;
  /** Pending gates past their warning time (10 min before the deadline, or 80 % into a shorter wait) not yet warned of. */
  listWarningDueGates(limit: number): Promise<WarningDueGate[]>;
  /** True when this node is the one to warn (a warning per gate and deadline). */
  markTimeoutWarned(gateId: string, timeoutAt: number): Promise<boolean>;
  insertNotification(notification: NotificationRecord): Promise<void>;
  getNotification(id: string): Promise<NotificationRecord | null>;
  listNotifications(
    filter: NotificationFilter,
  ): Promise<{ items: NotificationRecord[]; nextCursor: string | null }>;
  /** How many notices there are per channel and status (for metrics). */
  countNotifications(): Promise<
    { channel: NotificationChannelName; status: NotificationStatus; count: number }[]
  >;
  /** People told of a gate on a channel, with the ref each got last (for updates). */
  listNotifiedOf(gateId: string): Promise<{ userId: string; channel: NotificationChannelName }[]>;
  hasNotificationWork(dueBy: number): Promise<boolean>;
  /** Claims due notices whose earlier notices (same gate, person, channel) are done, so updates follow the message they update. */
  claimNotifications(options: {
    limit: number;
    leaseMs: number;
    token: string;
  }): Promise<ClaimedNotification[]>;
  finishNotification(id: string, token: string, outcome: NotificationOutcome): Promise<boolean>;
  releaseNotification(id: string, token: string): Promise<boolean>;
  /** The server's secret of `name`, created from `candidate` by whichever node asks first. */
  ensureNotificationSecret(name: string, candidate: string): Promise<string>;
  isEmailActionLinkUsed(linkId: string): Promise<boolean>;
  /** Records an emailed link's use; false when it was used before. */
  useEmailActionLink(linkId: string, gateId: string, userId: string): Promise<boolean>;
  /** Forgets a link's use when the decision it carried was not recorded, so the person can try again. */
  releaseEmailActionLink(linkId: string): Promise<void>;
}
