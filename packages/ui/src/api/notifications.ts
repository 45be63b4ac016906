import {
  type CreateNotificationRuleBody,
  type MyNotificationChannelsBody,
  type MyNotificationChannelsResponse,
  type NotificationDocument,
  type NotificationRuleDocument,
  type NotificationsQuery,
  notificationRoutes,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type { MyNotificationChannelsResponse, NotificationDocument, NotificationRuleDocument };

/** The signed-in person's channels and email address. */
export function myChannels(signal?: AbortSignal): Promise<MyNotificationChannelsResponse> {
  return callApi(notificationRoutes.myChannels, {}, signal);
}

export function saveMyChannels(body: MyNotificationChannelsBody): Promise<MyNotificationChannelsResponse> {
  return callApi(notificationRoutes.setMyChannels, { body });
}

/** Notices, newest first (people below tech lead get only their own). */
export async function listNotifications(
  query: Pick<NotificationsQuery, 'status' | 'gateId'>,
  signal?: AbortSignal,
): Promise<NotificationDocument[]> {
  const answer = await callApi(notificationRoutes.list, { query: { limit: 100, ...query } }, signal);
  return answer.notifications;
}

export function listNotificationRules(
  signal?: AbortSignal,
): Promise<{ rules: NotificationRuleDocument[]; defaultApplies: boolean }> {
  return callApi(notificationRoutes.listRules, {}, signal);
}

export async function createNotificationRule(
  body: CreateNotificationRuleBody,
): Promise<NotificationRuleDocument> {
  return (await callApi(notificationRoutes.createRule, { body })).rule;
}

export async function setNotificationRuleEnabled(
  id: string,
  enabled: boolean,
): Promise<NotificationRuleDocument> {
  return (await callApi(notificationRoutes.updateRule, { params: { id }, body: { enabled } })).rule;
}

export async function deleteNotificationRule(id: string): Promise<NotificationRuleDocument> {
  return (await callApi(notificationRoutes.deleteRule, { params: { id } })).rule;
}
