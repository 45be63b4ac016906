import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from 'gatehouse-hitl-core';
import { notificationRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';
import { NOTIFICATION_ADMIN_ROLE } from '../services/notifications/notification-service.js';

/** Notification rules (tech leads and admins), the delivery log, and each person's own channels. */
export async function notificationRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const { notifications } = services;
  // Who may call is checked before the input is validated: a refused caller learns nothing of it.
  const only = (role: Role) => ({
    preValidation: async (request: FastifyRequest) => {
      requireUser(request, role);
    },
  });
  const admin = only(NOTIFICATION_ADMIN_ROLE);
  const person = only('viewer');

  registerRoute(
    app,
    routes.listRules,
    async (request) => {
      requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return notifications.listRules();
    },
    admin,
  );

  registerRoute(
    app,
    routes.createRule,
    async (request, reply) => {
      const user = requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return reply.status(201).send({ rule: await notifications.createRule(user, request.body) });
    },
    admin,
  );

  registerRoute(
    app,
    routes.updateRule,
    async (request) => {
      const user = requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return { rule: await notifications.updateRule(user, request.params.id, request.body) };
    },
    admin,
  );

  registerRoute(
    app,
    routes.deleteRule,
    async (request) => {
      const user = requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return { rule: await notifications.deleteRule(user, request.params.id) };
    },
    admin,
  );

  registerRoute(
    app,
    routes.list,
    async (request) => {
      const user = requireUser(request);
      const { gateId, userId, status, limit, cursor } = request.query;
      const page = await notifications.list(user, {
        limit,
        ...(gateId === undefined ? {} : { gateId }),
        ...(userId === undefined ? {} : { userId }),
        ...(status === undefined ? {} : { status }),
        ...(cursor === undefined ? {} : { cursor }),
      });
      return { notifications: page.items, nextCursor: page.nextCursor };
    },
    person,
  );

  registerRoute(
    app,
    routes.myChannels,
    async (request) => notifications.myChannels(requireUser(request).id),
    person,
  );

  registerRoute(
    app,
    routes.setMyChannels,
    async (request) => notifications.setMyChannels(requireUser(request).id, request.body),
    person,
  );
}
