import type { FastifyInstance } from 'fastify';
import { whitelistRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';
import { WHITELIST_ROLE } from '../services/whitelists/whitelist-decisions.js';

/** Whitelist entries (people only: an agent never whitelists its own findings) and the patterns' rates. */
export async function whitelistRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  registerRoute(app, routes.list, async (request) => ({
    whitelists: await services.whitelists.list(requireUser(request, 'viewer')),
  }));
  registerRoute(app, routes.create, async (request, reply) => {
    const whitelist = await services.whitelists.create(requireUser(request, WHITELIST_ROLE), request.body);
    return reply.status(201).send({ whitelist });
  });
  registerRoute(app, routes.remove, async (request) => ({
    whitelist: await services.whitelists.remove(requireUser(request, WHITELIST_ROLE), request.params.id),
  }));
  registerRoute(app, routes.renew, async (request) => ({
    whitelist: await services.whitelists.renew(
      requireUser(request, WHITELIST_ROLE),
      request.params.id,
      request.body ?? {},
    ),
  }));
  registerRoute(app, routes.patterns, async (request) => {
    requireUser(request, 'viewer');
    return { patterns: await services.whitelists.patterns() };
  });
}
