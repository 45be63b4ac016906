import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  runParamsSchema as params,
  searchIndexBodySchema,
  searchQuerySchema,
  searchResponseSchema,
  searchStatusResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** Workspace search: full-text and semantic, over the index built when the run froze. */
export async function searchRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['search'];

  app.get(
    '/v1/runs/:id/search',
    { schema: { tags, params, querystring: searchQuerySchema, response: { 200: searchResponseSchema } } },
    async (request) =>
      services.search.search(requireAuthenticated(request), request.params.id, request.query),
  );

  app.get(
    '/v1/runs/:id/search/status',
    { schema: { tags, params, response: { 200: searchStatusResponseSchema } } },
    async (request) => services.search.status(requireAuthenticated(request), request.params.id),
  );

  app.post(
    '/v1/runs/:id/search/index',
    { schema: { tags, params, body: searchIndexBodySchema, response: { 202: searchStatusResponseSchema } } },
    async (request, reply) => {
      const status = await services.search.indexNow(
        requireAuthenticated(request),
        request.params.id,
        request.body,
      );
      return reply.status(202).send(status);
    },
  );
}
