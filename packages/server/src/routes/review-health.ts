import type { FastifyInstance } from 'fastify';
import { reviewHealthRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** What reviewers open of a gate (any person), and review health (admins only). */
export async function reviewHealthRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  registerRoute(app, routes.recordView, async (request) => {
    const user = requireUser(request, 'viewer');
    return services.reviewHealth.recordView(user.id, request.params.id, request.body.part);
  });

  registerRoute(app, routes.report, async (request) => {
    requireUser(request, 'admin');
    return services.reviewHealth.report(request.query.window);
  });
}
