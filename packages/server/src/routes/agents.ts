import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  agentAutonomyBodySchema,
  agentListResponseSchema,
  agentResponseSchema,
  agentTokenResponseSchema,
  createAgentBodySchema,
  createAgentResponseSchema,
  agentParamsSchema as params,
  revokeTokensResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

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
        body: createAgentBodySchema,
        response: { 201: createAgentResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      return reply.status(201).send(await services.agents.create(admin.id, request.body));
    },
  );

  app.get('/v1/agents', { schema: { tags, response: { 200: agentListResponseSchema } } }, async (request) => {
    requireUser(request, 'viewer');
    return { agents: await services.agents.list() };
  });

  app.get(
    '/v1/agents/:id',
    { schema: { tags, params, response: { 200: agentResponseSchema } } },
    async (request) => {
      requireUser(request, 'viewer');
      return { agent: await services.agents.get(request.params.id) };
    },
  );

  app.patch(
    '/v1/agents/:id',
    { schema: { tags, params, body: agentAutonomyBodySchema, response: { 200: agentResponseSchema } } },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return { agent: await services.agents.setAutonomy(admin.id, request.params.id, request.body.autonomy) };
    },
  );

  app.post(
    '/v1/agents/:id/tokens',
    { schema: { tags, params, response: { 201: agentTokenResponseSchema } } },
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
        response: { 200: revokeTokensResponseSchema },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return services.agents.revokeTokens(admin.id, request.params.id);
    },
  );
}
