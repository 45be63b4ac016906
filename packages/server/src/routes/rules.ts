import type { FastifyInstance } from 'fastify';
import { ruleRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Remembered "approve always" rules: list and revoke. */
export async function ruleRoutes(app: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.list, async (request) => {
    requireUser(request, 'viewer');
    return { rules: await services.rules.list({ includeRevoked: request.query.includeRevoked }) };
  });

  registerRoute(app, routes.revoke, async (request) => {
    const user = requireUser(request, 'developer');
    return { rule: await services.rules.revoke(user.id, request.params.id) };
  });
}
