import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  gateParamsSchema,
  gatePartViewedSchema,
  gateViewBodySchema,
  reviewHealthQuerySchema,
  reviewHealthSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** What reviewers open of a gate (any person), and review health (admins only). */
export async function reviewHealthRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/v1/gates/:id/views',
    {
      schema: {
        tags: ['gates'],
        params: gateParamsSchema,
        body: gateViewBodySchema,
        response: { 200: gatePartViewedSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, 'viewer');
      return services.reviewHealth.recordView(user.id, request.params.id, request.body.part);
    },
  );

  app.get(
    '/v1/review-health',
    {
      schema: {
        tags: ['metrics'],
        querystring: reviewHealthQuerySchema,
        response: { 200: reviewHealthSchema },
      },
    },
    async (request) => {
      requireUser(request, 'admin');
      return services.reviewHealth.report(request.query.window);
    },
  );
}
