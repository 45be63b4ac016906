import type { NotificationChannelName } from 'gatehouse-hitl-store';
import type { ServerConfig } from '../../config.js';
import type { AppContext } from '../../context.js';
import { createSlackChannel } from '../slack/slack-channel.js';
import type { NotificationChannel } from './channel.js';
import { createEmailChannel } from './email/email-channel.js';

/**
 * The channels this server delivers on: email with an SMTP URL, Slack with a bot token. Notices are
 * routed only to these, so a channel that is not configured costs nothing.
 */
export function configuredChannels(config: ServerConfig): NotificationChannelName[] {
  const channels: NotificationChannelName[] = [];
  if (config.notifications.smtpUrl !== null) channels.push('email');
  if (config.slack.botToken !== null) channels.push('slack');
  return channels;
}

/** Whether any gate change needs a notification trigger: false when no channel is configured. */
export function notifiesAnyone(config: ServerConfig): boolean {
  return config.notifications.smtpUrl !== null || config.slack.botToken !== null;
}

/**
 * Every channel the notification worker delivers through, built once per app. A notice left from
 * a time the channel was configured is recorded as failed with a plain reason instead of vanishing.
 * The web app's browser notifications come from the event stream and need no delivery here.
 */
export function notificationChannels(ctx: AppContext): NotificationChannel[] {
  return [createEmailChannel(ctx), createSlackChannel(ctx)];
}
