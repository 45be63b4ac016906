import { createSlackChannel } from '../../../slack/slack-channel.js';
import type { NotificationChannelDefinition } from '../../channel.js';

/** Slack direct messages from the bot, on when GATEHOUSE_SLACK_BOT_TOKEN is set. */
export const slackChannel: NotificationChannelDefinition = {
  name: 'slack',
  isConfigured: (config) => config.slack.botToken !== null,
  create: (ctx, catalog) => createSlackChannel(ctx, undefined, catalog),
};
