import { z } from 'zod';
import { autonomyLevelSchema } from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { agentIdSchema, nameSchema } from './ids.js';
import { agentDocumentSchema } from './people.js';

/** `POST /v1/agents`. */
export const createAgentBodySchema = z.strictObject({
  name: nameSchema.describe('Display name'),
  profile: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'profiles are lowercase words such as coder or debugger')
    .optional()
    .describe('Expert type that picks the default autonomy'),
  autonomy: autonomyLevelSchema.optional().describe('Default autonomy of its runs'),
});

const agentTokenSchema = z.string().describe('Agent token (gha_…); shown only this once');

export const createAgentResponseSchema = z.object({ agent: agentDocumentSchema, token: agentTokenSchema });

/** `PATCH /v1/agents/:id`. */
export const agentAutonomyBodySchema = z.strictObject({
  autonomy: autonomyLevelSchema
    .nullable()
    .describe('Default autonomy of its runs and the loosest they may ask for; null lets its profile decide'),
});

/** `:id` of every `/v1/agents/:id…` route. */
export const agentParamsSchema = z.strictObject({ id: agentIdSchema });

export const agentResponseSchema = z.object({ agent: agentDocumentSchema });

export const agentListResponseSchema = z.object({ agents: z.array(agentDocumentSchema) });

/** `POST /v1/agents/:id/tokens`. */
export const agentTokenResponseSchema = z.object({ token: agentTokenSchema });

/** `POST /v1/agents/:id/tokens/revoke`. */
export const revokeTokensResponseSchema = z.object({ revoked: z.number().describe('Tokens revoked') });

export type CreateAgentBody = z.input<typeof createAgentBodySchema>;
export type CreateAgentResponse = z.infer<typeof createAgentResponseSchema>;
export type AgentAutonomyBody = z.input<typeof agentAutonomyBodySchema>;
export type AgentResponse = z.infer<typeof agentResponseSchema>;
export type AgentListResponse = z.infer<typeof agentListResponseSchema>;
export type AgentTokenResponse = z.infer<typeof agentTokenResponseSchema>;
export type RevokeTokensResponse = z.infer<typeof revokeTokensResponseSchema>;

const tags = ['agents'];
const params = agentParamsSchema;

/** The agents routes. */
export const agentRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/v1/agents',
    tags,
    body: createAgentBodySchema,
    response: { 201: createAgentResponseSchema },
  }),
  list: defineRoute({ method: 'GET', path: '/v1/agents', tags, response: { 200: agentListResponseSchema } }),
  get: defineRoute({
    method: 'GET',
    path: '/v1/agents/:id',
    tags,
    params,
    response: { 200: agentResponseSchema },
  }),
  setAutonomy: defineRoute({
    method: 'PATCH',
    path: '/v1/agents/:id',
    tags,
    params,
    body: agentAutonomyBodySchema,
    response: { 200: agentResponseSchema },
  }),
  issueToken: defineRoute({
    method: 'POST',
    path: '/v1/agents/:id/tokens',
    tags,
    params,
    response: { 201: agentTokenResponseSchema },
  }),
  revokeTokens: defineRoute({
    method: 'POST',
    path: '/v1/agents/:id/tokens/revoke',
    tags,
    params,
    response: { 200: revokeTokensResponseSchema },
  }),
};
