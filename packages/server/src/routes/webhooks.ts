import type { FastifyInstance } from 'fastify';
import { webhookRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Webhooks: admin only, because an admin is trusted with where the server sends requests. */
export async function webhookRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const { webhooks } = services;

  registerRoute(app, routes.create, async (request, reply) => {
    const admin = requireUser(request, 'admin');
    return reply.status(201).send(await webhooks.create(admin.id, request.body));
  });

  registerRoute(app, routes.list, async (request) => {
    requireUser(request, 'admin');
    return { webhooks: await webhooks.list() };
  });

  registerRoute(app, routes.get, async (request) => {
    requireUser(request, 'admin');
    return { webhook: await webhooks.get(request.params.id) };
  });

  registerRoute(app, routes.update, async (request) => {
    const admin = requireUser(request, 'admin');
    return webhooks.update(admin.id, request.params.id, request.body);
  });

  registerRoute(app, routes.remove, async (request) => {
    const admin = requireUser(request, 'admin');
    return { webhook: await webhooks.remove(admin.id, request.params.id) };
  });

  registerRoute(app, routes.deliveries, async (request) => {
    requireUser(request, 'admin');
    const { status, limit, cursor } = request.query;
    return webhooks.deliveries(request.params.id, { status, limit, cursor });
  });

  registerRoute(app, routes.delivery, async (request) => {
    requireUser(request, 'admin');
    return webhooks.delivery(request.params.deliveryId);
  });

  registerRoute(app, routes.redeliver, async (request, reply) => {
    const admin = requireUser(request, 'admin');
    const delivery = await webhooks.redeliver(admin.id, request.params.deliveryId);
    return reply.status(201).send({ delivery });
  });
}
