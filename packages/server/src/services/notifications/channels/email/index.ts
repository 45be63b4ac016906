import type { NotificationChannelDefinition } from '../../channel.js';
import { createEmailChannel } from '../../email/email-channel.js';

/** Email through any SMTP server, on when GATEHOUSE_SMTP_URL is set. */
export const emailChannel: NotificationChannelDefinition = {
  name: 'email',
  isConfigured: (config) => config.notifications.smtpUrl !== null,
  create: createEmailChannel,
};
