import type { FastifyInstance } from 'fastify';
import { agentRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Agents and their tokens. */
export async function agentRoutes(app: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.create, async (request, reply) => {
    const admin = requireUser(request, 'admin');
    return reply.status(201).send(await services.agents.create(admin.id, request.body));
  });

  registerRoute(app, routes.list, async (request) => {
    requireUser(request, 'viewer');
    return { agents: await services.agents.list() };
  });

  registerRoute(app, routes.get, async (request) => {
    requireUser(request, 'viewer');
    return { agent: await services.agents.get(request.params.id) };
  });

  registerRoute(app, routes.setAutonomy, async (request) => {
    const admin = requireUser(request, 'admin');
    return { agent: await services.agents.setAutonomy(admin.id, request.params.id, request.body.autonomy) };
  });

  registerRoute(app, routes.issueToken, async (request, reply) => {
    const admin = requireUser(request, 'admin');
    return reply.status(201).send(await services.agents.issueToken(admin.id, request.params.id));
  });

  registerRoute(app, routes.revokeTokens, async (request) => {
    const admin = requireUser(request, 'admin');
    return services.agents.revokeTokens(admin.id, request.params.id);
  });
}
