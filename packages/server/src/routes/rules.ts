import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { rememberedRuleWireSchema, ruleIdSchema } from './gate-schemas.js';

const listQuery = z.strictObject({
  includeRevoked: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('Also list revoked and expired rules'),
});

/** Remembered "approve always" rules: list and revoke. */
export async function ruleRoutes(base: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['rules'];

  app.get(
    '/v1/rules',
    {
      schema: {
        tags,
        querystring: listQuery,
        response: { 200: z.object({ rules: z.array(rememberedRuleWireSchema) }) },
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
        params: z.strictObject({ id: ruleIdSchema }),
        response: { 200: z.object({ rule: rememberedRuleWireSchema }) },
      },
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      return { rule: await services.rules.revoke(user.id, request.params.id) };
    },
  );
}
