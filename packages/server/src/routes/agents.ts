import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { autonomyLevelSchema } from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { agentIdSchema, agentSchema, nameSchema } from './people-schemas.js';

const createBody = z.strictObject({
  name: nameSchema.describe('Display name'),
  profile: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'profiles are lowercase words such as coder or debugger')
    .optional()
    .describe('Expert type that picks the default autonomy'),
  autonomy: autonomyLevelSchema.optional().describe('Default autonomy of its runs'),
});

const autonomyBody = z.strictObject({
  autonomy: autonomyLevelSchema
    .nullable()
    .describe('Default autonomy of its runs and the loosest they may ask for; null lets its profile decide'),
});

const tokenResponse = z.object({ token: z.string().describe('Agent token (gha_…); shown only this once') });
const params = z.strictObject({ id: agentIdSchema });

/** Agents and their tokens. */
export async function agentRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['agents'];

  app.post(
    '/v1/agents',
    {
      schema: {
        tags,
        body: createBody,
        response: { 201: z.object({ agent: agentSchema, token: tokenResponse.shape.token }) },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      return reply.status(201).send(await services.agents.create(admin.id, request.body));
    },
  );

  app.get(
    '/v1/agents',
    { schema: { tags, response: { 200: z.object({ agents: z.array(agentSchema) }) } } },
    async (request) => {
      requireUser(request, 'viewer');
      return { agents: await services.agents.list() };
    },
  );

  app.get(
    '/v1/agents/:id',
    { schema: { tags, params, response: { 200: z.object({ agent: agentSchema }) } } },
    async (request) => {
      requireUser(request, 'viewer');
      return { agent: await services.agents.get(request.params.id) };
    },
  );

  app.patch(
    '/v1/agents/:id',
    { schema: { tags, params, body: autonomyBody, response: { 200: z.object({ agent: agentSchema }) } } },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return { agent: await services.agents.setAutonomy(admin.id, request.params.id, request.body.autonomy) };
    },
  );

  app.post(
    '/v1/agents/:id/tokens',
    { schema: { tags, params, response: { 201: tokenResponse } } },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      return reply.status(201).send(await services.agents.issueToken(admin.id, request.params.id));
    },
  );

  app.post(
    '/v1/agents/:id/tokens/revoke',
    {
      schema: {
        tags,
        params,
        response: { 200: z.object({ revoked: z.number().describe('Tokens revoked') }) },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return services.agents.revokeTokens(admin.id, request.params.id);
    },
  );
}
