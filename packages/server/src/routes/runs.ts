import type { FastifyInstance } from 'fastify';
import { runRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { defined } from '../http/defined.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Runs: create, read, list, phase checkpoints, completion and interventions. */
export async function runRoutes(app: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.create, async (request, reply) => {
    const run = await services.runs.create(requireAuthenticated(request), request.body);
    return reply.status(201).send({ run });
  });

  registerRoute(app, routes.list, async (request) =>
    services.runs.list(requireAuthenticated(request), defined(request.query)),
  );

  registerRoute(app, routes.get, async (request) =>
    services.runs.detail(requireAuthenticated(request), request.params.id),
  );

  registerRoute(app, routes.checkpoint, async (request) =>
    services.runs
      .checkpoint(requireAuthenticated(request), request.params.id, request.body)
      .then((result) => services.search.afterCheckpoint(request.params.id, request.body, result)),
  );

  registerRoute(app, routes.complete, async (request) =>
    services.runs.complete(requireAuthenticated(request), request.params.id),
  );

  registerRoute(app, routes.intervene, async (request) => {
    const user = requireUser(request, 'developer');
    return services.runs.intervene(user, request.params.id, request.body);
  });

  registerRoute(app, routes.interventions, async (request) => ({
    items: await services.runs.interventions(
      requireAuthenticated(request),
      request.params.id,
      request.query.after,
    ),
  }));
}
