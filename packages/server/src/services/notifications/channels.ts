import type { GateCatalog } from 'gatehouse-hitl-core';
import type { NotificationChannelName } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { NotificationChannel } from './channel.js';

type Channels = Pick<AppContext, 'config' | 'notificationChannels'>;

/**
 * The channels this server delivers on (email with an SMTP URL, Slack with a bot token). Notices
 * are routed only to these, so a channel that is not configured costs nothing.
 */
export function configuredChannels(ctx: Channels): NotificationChannelName[] {
  return ctx.notificationChannels
    .filter((channel) => channel.isConfigured(ctx.config))
    .map((channel) => channel.name);
}

/** Whether any gate change needs a notification trigger: false when no channel is configured. */
export function notifiesAnyone(ctx: Channels): boolean {
  return ctx.notificationChannels.some((channel) => channel.isConfigured(ctx.config));
}

/**
 * Every channel the notification worker delivers through, built once per app. A notice left from
 * a time the channel was configured is recorded as failed with a plain reason instead of vanishing.
 * The web app's browser notifications come from the event stream and need no delivery here.
 */
export function notificationChannels(ctx: AppContext, catalog: GateCatalog): NotificationChannel[] {
  return ctx.notificationChannels.map((definition) => ({
    ...definition.create(ctx, catalog),
    kind: definition.name,
    enabled: definition.isConfigured(ctx.config),
  }));
}
