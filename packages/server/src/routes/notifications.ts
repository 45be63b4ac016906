import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Role } from 'gatehouse-hitl-core';
import {
  createNotificationRuleBodySchema,
  myNotificationChannelsBodySchema,
  myNotificationChannelsResponseSchema,
  notificationPageSchema,
  notificationRuleListResponseSchema,
  notificationRuleResponseSchema,
  notificationsQuerySchema,
  notificationRuleParamsSchema as params,
  updateNotificationRuleBodySchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { NOTIFICATION_ADMIN_ROLE } from '../services/notifications/notification-service.js';

/** Notification rules (tech leads and admins), the delivery log, and each person's own channels. */
export async function notificationRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['notifications'];
  const { notifications } = services;
  // Who may call is checked before the input is validated: a refused caller learns nothing of it.
  const only = (role: Role) => ({
    preValidation: async (request: FastifyRequest) => {
      requireUser(request, role);
    },
  });
  const admin = only(NOTIFICATION_ADMIN_ROLE);
  const person = only('viewer');

  app.get(
    '/v1/notification-rules',
    { ...admin, schema: { tags, response: { 200: notificationRuleListResponseSchema } } },
    async (request) => {
      requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return notifications.listRules();
    },
  );

  app.post(
    '/v1/notification-rules',
    {
      ...admin,
      schema: {
        tags,
        body: createNotificationRuleBodySchema,
        response: { 201: notificationRuleResponseSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return reply.status(201).send({ rule: await notifications.createRule(user, request.body) });
    },
  );

  app.patch(
    '/v1/notification-rules/:id',
    {
      ...admin,
      schema: {
        tags,
        params,
        body: updateNotificationRuleBodySchema,
        response: { 200: notificationRuleResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return { rule: await notifications.updateRule(user, request.params.id, request.body) };
    },
  );

  app.delete(
    '/v1/notification-rules/:id',
    { ...admin, schema: { tags, params, response: { 200: notificationRuleResponseSchema } } },
    async (request) => {
      const user = requireUser(request, NOTIFICATION_ADMIN_ROLE);
      return { rule: await notifications.deleteRule(user, request.params.id) };
    },
  );

  app.get(
    '/v1/notifications',
    {
      ...person,
      schema: { tags, querystring: notificationsQuerySchema, response: { 200: notificationPageSchema } },
    },
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
  );

  app.get(
    '/v1/me/notification-channels',
    { ...person, schema: { tags, response: { 200: myNotificationChannelsResponseSchema } } },
    async (request) => notifications.myChannels(requireUser(request).id),
  );

  app.put(
    '/v1/me/notification-channels',
    {
      ...person,
      schema: {
        tags,
        body: myNotificationChannelsBodySchema,
        response: { 200: myNotificationChannelsResponseSchema },
      },
    },
    async (request) => notifications.setMyChannels(requireUser(request).id, request.body),
  );
}
