import type { FastifyInstance } from 'fastify';
import { searchRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Workspace search: full-text and semantic, over the index built when the run froze. */
export async function searchRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  registerRoute(app, routes.search, async (request) =>
    services.search.search(requireAuthenticated(request), request.params.id, request.query),
  );

  registerRoute(app, routes.status, async (request) =>
    services.search.status(requireAuthenticated(request), request.params.id),
  );

  registerRoute(app, routes.index, async (request, reply) => {
    const status = await services.search.indexNow(
      requireAuthenticated(request),
      request.params.id,
      request.body,
    );
    return reply.status(202).send(status);
  });
}
