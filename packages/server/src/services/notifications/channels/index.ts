import type { NotificationChannelDefinition } from '../channel.js';
import { emailChannel } from './email/index.js';
import { slackChannel } from './slack/index.js';

/**
 * Every channel the notification worker delivers through, one folder each. `browser` is not here:
 * the web app raises it from its event stream.
 */
export const NOTIFICATION_CHANNEL_DEFINITIONS: readonly NotificationChannelDefinition[] = [
  emailChannel,
  slackChannel,
];
