import type {
  CreateNotificationRuleBody,
  MyNotificationChannelsBody,
  MyNotificationChannelsResponse,
  NotificationDocument,
  NotificationRuleDocument,
} from 'gatehouse-hitl-protocol';
import { api } from './client.js';

export type { MyNotificationChannelsResponse, NotificationDocument, NotificationRuleDocument };

/** The signed-in person's channels and email address. */
export function myChannels(signal?: AbortSignal): Promise<MyNotificationChannelsResponse> {
  return api('GET', '/v1/me/notification-channels', signal ? { signal } : {});
}

export function saveMyChannels(body: MyNotificationChannelsBody): Promise<MyNotificationChannelsResponse> {
  return api('PUT', '/v1/me/notification-channels', { body });
}

/** Notices, newest first (people below tech lead get only their own). */
export async function listNotifications(
  query: { status?: string; gateId?: string },
  signal?: AbortSignal,
): Promise<NotificationDocument[]> {
  const answer = await api<{ notifications: NotificationDocument[] }>('GET', '/v1/notifications', {
    query: { limit: 100, ...query },
    ...(signal ? { signal } : {}),
  });
  return answer.notifications;
}

export function listNotificationRules(
  signal?: AbortSignal,
): Promise<{ rules: NotificationRuleDocument[]; defaultApplies: boolean }> {
  return api('GET', '/v1/notification-rules', signal ? { signal } : {});
}

export async function createNotificationRule(
  body: CreateNotificationRuleBody,
): Promise<NotificationRuleDocument> {
  return (await api<{ rule: NotificationRuleDocument }>('POST', '/v1/notification-rules', { body })).rule;
}

export async function setNotificationRuleEnabled(
  id: string,
  enabled: boolean,
): Promise<NotificationRuleDocument> {
  const path = `/v1/notification-rules/${encodeURIComponent(id)}`;
  return (await api<{ rule: NotificationRuleDocument }>('PATCH', path, { body: { enabled } })).rule;
}

export async function deleteNotificationRule(id: string): Promise<NotificationRuleDocument> {
  const path = `/v1/notification-rules/${encodeURIComponent(id)}`;
  return (await api<{ rule: NotificationRuleDocument }>('DELETE', path)).rule;
}
