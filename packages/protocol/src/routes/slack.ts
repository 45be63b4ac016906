import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { userIdSchema } from './ids.js';
import { userParamsSchema } from './users.js';

/** A Slack member id as Slack shows it in a profile: U… or W…, upper-case letters and digits. */
export const slackUserIdSchema = z
  .string()
  .regex(/^[UW][A-Z0-9]{2,30}$/, 'must be a Slack member id like U024BE7LH (profile → ⋮ → Copy member ID)')
  .describe('Slack member id (U… or W…)');

/** `PUT /v1/users/:id/slack`. */
export const putSlackUserBodySchema = z.strictObject({
  slackUserId: slackUserIdSchema,
});

export const slackUserLinkSchema = z
  .object({
    userId: userIdSchema.describe('The person'),
    slackUserId: z.string().describe('Their Slack member id; clicks by this Slack user decide as them'),
    createdBy: z.string().describe('Who set it (user:…)'),
    createdAt: z.number().describe('Epoch ms'),
  })
  .describe('Which Slack user a person is');

/** `GET`, `PUT` and `DELETE /v1/users/:id/slack`. */
export const slackUserResponseSchema = z.object({
  slack: slackUserLinkSchema.nullable().describe('null when the person has no Slack user id'),
});

/** `POST /v1/slack/interactions`: Slack's form-encoded interaction, signed with the signing secret. */
export const slackInteractionBodySchema = z.strictObject({
  payload: z.string().min(2).max(100_000).describe('The interaction, JSON, as Slack sends it'),
});

/** What Slack reads back from an interaction: nothing, or a modal's field errors. */
export const slackInteractionResponseSchema = z.object({
  response_action: z.enum(['errors', 'clear']).optional().describe('errors: show them on the modal’s fields'),
  errors: z.record(z.string(), z.string()).optional().describe('Field (block id) → message'),
});

export type PutSlackUserBody = z.input<typeof putSlackUserBodySchema>;
export type SlackUserLinkDocument = z.infer<typeof slackUserLinkSchema>;
export type SlackUserResponse = z.infer<typeof slackUserResponseSchema>;
export type SlackInteractionResponse = z.infer<typeof slackInteractionResponseSchema>;

const slackUserTags = ['people'];

/** A person's Slack user id: admins manage anyone's, a person their own. */
export const slackUserRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/v1/users/:id/slack',
    tags: slackUserTags,
    params: userParamsSchema,
    response: { 200: slackUserResponseSchema },
  }),
  set: defineRoute({
    method: 'PUT',
    path: '/v1/users/:id/slack',
    tags: slackUserTags,
    params: userParamsSchema,
    body: putSlackUserBodySchema,
    response: { 200: slackUserResponseSchema },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/v1/users/:id/slack',
    tags: slackUserTags,
    params: userParamsSchema,
    response: { 200: slackUserResponseSchema },
  }),
};

/** Slack's interactivity endpoint: form-encoded, signed with the signing secret, called only by Slack. */
export const slackRoutes = {
  interaction: defineRoute({
    method: 'POST',
    path: '/v1/slack/interactions',
    tags: ['slack'],
    body: slackInteractionBodySchema,
    response: { 200: slackInteractionResponseSchema },
  }),
};
