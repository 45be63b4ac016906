import { z } from 'zod';
import { riskLevelSchema, roleSchema } from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { opaqueCursorSchema, pageLimitSchema } from './ids.js';

export const NOTIFICATION_TRIGGERS = [
  'gate.opened',
  'gate.timeout_warning',
  'gate.escalated',
  'gate.assigned',
  'gate.decided',
  'gate.expired',
  'gate.cancelled',
] as const;

export const NOTIFICATION_CHANNELS = ['email', 'slack', 'browser'] as const;

export const notificationTriggerSchema = z
  .enum(NOTIFICATION_TRIGGERS)
  .describe('What happened to the gate (docs/notifications.md)');
export const notificationChannelSchema = z.enum(NOTIFICATION_CHANNELS).describe('A way of reaching a person');
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS)[number];
export const notificationStatusSchema = z
  .enum(['pending', 'sent', 'failed'])
  .describe('pending (waiting for its next attempt), sent, or failed (out of attempts, or not deliverable)');

export const notificationRuleIdSchema = z
  .string()
  .regex(/^nrl_[A-Za-z0-9_]{1,64}$/, 'a notification rule id looks like nrl_…')
  .describe('Notification rule id');

const gateTypeSchema = z.string().min(1).max(100);
const agentIdSchema = z.string().min(1).max(200);

const ruleFields = {
  name: z.string().trim().min(1).max(200).describe('What the rule is for'),
  gateTypes: z.array(gateTypeSchema).max(50).describe('Gate types it covers; empty = every type'),
  risks: z.array(riskLevelSchema).max(10).describe('Risk levels it covers; empty = every level'),
  agentIds: z.array(agentIdSchema).max(100).describe('Agents whose gates it covers; empty = every agent'),
  roles: z
    .array(roleSchema)
    .max(4)
    .describe('Roles of the people it tells (still only people who may decide); empty = every such person'),
  assigneesOnly: z.boolean().describe('When the gate has assignees, tell only them'),
  triggers: z
    .array(notificationTriggerSchema)
    .max(NOTIFICATION_TRIGGERS.length)
    .describe('Triggers; empty = all'),
  channels: z
    .array(notificationChannelSchema)
    .min(1)
    .max(NOTIFICATION_CHANNELS.length)
    .describe('Channels it uses'),
  enabled: z.boolean().describe('A disabled rule tells nobody'),
};

/** `POST /v1/notification-rules`. */
export const createNotificationRuleBodySchema = z.strictObject({
  name: ruleFields.name,
  gateTypes: ruleFields.gateTypes.optional(),
  risks: ruleFields.risks.optional(),
  agentIds: ruleFields.agentIds.optional(),
  roles: ruleFields.roles.optional(),
  assigneesOnly: ruleFields.assigneesOnly.optional(),
  triggers: ruleFields.triggers.optional(),
  channels: ruleFields.channels,
  enabled: ruleFields.enabled.optional(),
});

/** `PATCH /v1/notification-rules/:id`: only the fields given change. */
export const updateNotificationRuleBodySchema = z.strictObject({
  name: ruleFields.name.optional(),
  gateTypes: ruleFields.gateTypes.optional(),
  risks: ruleFields.risks.optional(),
  agentIds: ruleFields.agentIds.optional(),
  roles: ruleFields.roles.optional(),
  assigneesOnly: ruleFields.assigneesOnly.optional(),
  triggers: ruleFields.triggers.optional(),
  channels: ruleFields.channels.optional(),
  enabled: ruleFields.enabled.optional(),
});

export const notificationRuleDocumentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    gateTypes: z.array(z.string()),
    risks: z.array(z.string()),
    agentIds: z.array(z.string()),
    roles: z.array(z.string()),
    assigneesOnly: z.boolean(),
    triggers: z.array(z.string()),
    channels: z.array(z.string()),
    enabled: z.boolean(),
    createdBy: z.string().describe('Person id'),
    createdAt: z.number().describe('Epoch ms'),
    updatedAt: z.number().describe('Epoch ms'),
  })
  .describe('Who hears of which gates, on which channels');

export const notificationRuleParamsSchema = z.strictObject({ id: notificationRuleIdSchema });
export const notificationRuleResponseSchema = z.object({ rule: notificationRuleDocumentSchema });
export const notificationRuleListResponseSchema = z.object({
  rules: z.array(notificationRuleDocumentSchema),
  defaultApplies: z.boolean().describe('No rule is enabled, so everyone who may decide hears of everything'),
});

export const notificationDocumentSchema = z
  .object({
    id: z.string(),
    trigger: z.string().describe('What happened'),
    gateId: z.string(),
    userId: z.string().describe('The person told'),
    channel: z.string(),
    status: notificationStatusSchema,
    attempts: z.number().describe('Attempts started so far'),
    nextAttemptAt: z.number().nullable().describe('Epoch ms; null once ended'),
    lastError: z.string().nullable().describe('Why the last attempt failed'),
    ref: z.string().nullable().describe('What the channel returned: an email Message-ID, a Slack message'),
    createdAt: z.number(),
    updatedAt: z.number(),
    sentAt: z.number().nullable(),
  })
  .describe('One notice to one person on one channel, with its delivery outcome');

/** `GET /v1/notifications`. */
export const notificationsQuerySchema = z.strictObject({
  gateId: z.string().min(1).max(200).optional().describe('Only this gate'),
  userId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only this person (people below tech_lead see only their own)'),
  status: notificationStatusSchema.optional(),
  limit: pageLimitSchema(50),
  cursor: opaqueCursorSchema.optional(),
});

export const notificationPageSchema = z.object({
  notifications: z.array(notificationDocumentSchema),
  nextCursor: z.string().nullable(),
});

/** `PUT /v1/me/notification-channels`. */
export const myNotificationChannelsBodySchema = z.strictObject({
  channels: z
    .array(notificationChannelSchema)
    .max(NOTIFICATION_CHANNELS.length)
    .describe('The channels that reach you; empty = none'),
  email: z.string().trim().email().max(320).nullable().describe('Where email notices go; null = no email'),
});

export const myNotificationChannelsResponseSchema = z.object({
  channels: z
    .array(notificationChannelSchema)
    .describe('Your channels (all delivered ones until you choose)'),
  chosen: z.boolean().describe('False until you save a choice'),
  email: z.string().nullable(),
  slackLinked: z.boolean().describe('Your Slack user is mapped to you (an admin maps it)'),
  available: z
    .object(
      Object.fromEntries(NOTIFICATION_CHANNELS.map((name) => [name, z.boolean()])) as Record<
        NotificationChannelName,
        z.ZodBoolean
      >,
    )
    .describe('Which channels this server has configured'),
});

/** `?token=` of the emailed decision link (a query, not a path segment: tokens are longer than a path parameter may be). */
export const emailActionQuerySchema = z.strictObject({
  token: z.string().min(1).max(4096).describe('The signed link token from the email'),
});

/** The confirmation form's fields (`application/x-www-form-urlencoded`). */
export const emailActionBodySchema = z.strictObject({
  reason: z.string().max(10_000).optional(),
  instructions: z.string().max(10_000).optional(),
  feedback: z.string().max(10_000).optional(),
  answer: z.string().max(10_000).optional(),
  delegateTo: z.string().max(200).optional().describe('The agent a delegation hands the task to (its id)'),
  newLimit: z.string().max(50).optional().describe('The new limit of an expanded constraint (a number)'),
});

export type CreateNotificationRuleBody = z.infer<typeof createNotificationRuleBodySchema>;
export type UpdateNotificationRuleBody = z.infer<typeof updateNotificationRuleBodySchema>;
export type NotificationRuleDocument = z.infer<typeof notificationRuleDocumentSchema>;
export type NotificationDocument = z.infer<typeof notificationDocumentSchema>;
export type NotificationsQuery = z.infer<typeof notificationsQuerySchema>;
export type MyNotificationChannelsBody = z.infer<typeof myNotificationChannelsBodySchema>;
export type MyNotificationChannelsResponse = z.infer<typeof myNotificationChannelsResponseSchema>;

const tags = ['notifications'];
const params = notificationRuleParamsSchema;

/** Notification rules (tech leads and admins), the delivery log, and each person's own channels. */
export const notificationRoutes = {
  /** An emailed decision link's confirmation page (HTML); it never decides. */
  emailActionPage: defineRoute({
    method: 'GET',
    path: '/v1/email-actions',
    tags,
    query: emailActionQuerySchema,
    produces: ['text/html'],
    response: { 200: z.string().describe('The confirmation page (HTML)') },
  }),
  /** The confirmation form's answer (HTML): decides once as the person the link was sent to. */
  emailActionConfirm: defineRoute({
    method: 'POST',
    path: '/v1/email-actions',
    tags,
    query: emailActionQuerySchema,
    body: emailActionBodySchema,
    produces: ['text/html'],
    response: { 200: z.string().describe('The outcome page (HTML)') },
  }),
  listRules: defineRoute({
    method: 'GET',
    path: '/v1/notification-rules',
    tags,
    response: { 200: notificationRuleListResponseSchema },
  }),
  createRule: defineRoute({
    method: 'POST',
    path: '/v1/notification-rules',
    tags,
    body: createNotificationRuleBodySchema,
    response: { 201: notificationRuleResponseSchema },
  }),
  updateRule: defineRoute({
    method: 'PATCH',
    path: '/v1/notification-rules/:id',
    tags,
    params,
    body: updateNotificationRuleBodySchema,
    response: { 200: notificationRuleResponseSchema },
  }),
  deleteRule: defineRoute({
    method: 'DELETE',
    path: '/v1/notification-rules/:id',
    tags,
    params,
    response: { 200: notificationRuleResponseSchema },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/v1/notifications',
    tags,
    query: notificationsQuerySchema,
    response: { 200: notificationPageSchema },
  }),
  myChannels: defineRoute({
    method: 'GET',
    path: '/v1/me/notification-channels',
    tags,
    response: { 200: myNotificationChannelsResponseSchema },
  }),
  setMyChannels: defineRoute({
    method: 'PUT',
    path: '/v1/me/notification-channels',
    tags,
    body: myNotificationChannelsBodySchema,
    response: { 200: myNotificationChannelsResponseSchema },
  }),
};
