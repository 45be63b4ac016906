import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ruleListQuerySchema,
  ruleListResponseSchema,
  ruleParamsSchema,
  ruleResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** Remembered "approve always" rules: list and revoke. */
export async function ruleRoutes(base: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['rules'];

  app.get(
    '/v1/rules',
    {
      schema: {
        tags,
        querystring: ruleListQuerySchema,
        response: { 200: ruleListResponseSchema },
      },
    },
    async (request) => {
      requireUser(request, 'viewer');
      return { rules: await services.rules.list({ includeRevoked: request.query.includeRevoked }) };
    },
  );

  app.delete(
    '/v1/rules/:id',
    {
      schema: {
        tags,
        params: ruleParamsSchema,
        response: { 200: ruleResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      return { rule: await services.rules.revoke(user.id, request.params.id) };
    },
  );
}
