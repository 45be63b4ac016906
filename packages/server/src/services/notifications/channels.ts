import type { AppContext } from '../../context.js';
import { createSlackChannel } from '../slack/slack-channel.js';
import type { NotificationChannel } from './channel.js';
import { createEmailChannel } from './email/email-channel.js';

/**
 * Every channel the notification worker delivers through, built once per app. A channel that is
 * not configured stays in the list with `enabled: false`, so its notices are recorded as failed
 * with a plain reason instead of vanishing. The web app's browser notifications come from the
 * event stream and need no delivery here.
 */
export function notificationChannels(ctx: AppContext): NotificationChannel[] {
  return [createEmailChannel(ctx), createSlackChannel(ctx)];
}
