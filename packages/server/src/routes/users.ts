import type { FastifyInstance } from 'fastify';
import { userRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** People, managed by admins. */
export async function userRoutes(app: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.list, async (request) => {
    requireUser(request, 'admin');
    return { users: await services.users.list() };
  });

  registerRoute(app, routes.create, async (request, reply) => {
    const admin = requireUser(request, 'admin');
    const user = await services.users.create(admin.id, request.body);
    return reply.status(201).send({ user });
  });

  registerRoute(app, routes.issueLoginLink, async (request, reply) => {
    const admin = requireUser(request, 'admin');
    const link = await services.users.issueLoginLink(admin.id, request.params.id);
    return reply.status(201).send({ ...link, path: `/login#token=${link.token}` });
  });

  registerRoute(app, routes.update, async (request) => {
    const admin = requireUser(request, 'admin');
    return { user: await services.users.update(admin.id, request.params.id, request.body) };
  });
}
