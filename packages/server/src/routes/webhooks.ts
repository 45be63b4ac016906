import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createWebhookBodySchema,
  createWebhookResponseSchema,
  deliveriesQuerySchema,
  deliveryDetailResponseSchema,
  deliveryPageSchema,
  deliveryParamsSchema,
  webhookParamsSchema as params,
  redeliverResponseSchema,
  updateWebhookBodySchema,
  updateWebhookResponseSchema,
  webhookListResponseSchema,
  webhookResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** Webhooks: admin only, because an admin is trusted with where the server sends requests. */
export async function webhookRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];
  const { webhooks } = services;

  app.post(
    '/v1/webhooks',
    {
      schema: {
        tags,
        body: createWebhookBodySchema,
        response: { 201: createWebhookResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      return reply.status(201).send(await webhooks.create(admin.id, request.body));
    },
  );

  app.get(
    '/v1/webhooks',
    { schema: { tags, response: { 200: webhookListResponseSchema } } },
    async (request) => {
      requireUser(request, 'admin');
      return { webhooks: await webhooks.list() };
    },
  );

  app.get(
    '/v1/webhooks/:id',
    { schema: { tags, params, response: { 200: webhookResponseSchema } } },
    async (request) => {
      requireUser(request, 'admin');
      return { webhook: await webhooks.get(request.params.id) };
    },
  );

  app.patch(
    '/v1/webhooks/:id',
    {
      schema: {
        tags,
        params,
        body: updateWebhookBodySchema,
        response: { 200: updateWebhookResponseSchema },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return webhooks.update(admin.id, request.params.id, request.body);
    },
  );

  app.delete(
    '/v1/webhooks/:id',
    { schema: { tags, params, response: { 200: webhookResponseSchema } } },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return { webhook: await webhooks.remove(admin.id, request.params.id) };
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        params,
        querystring: deliveriesQuerySchema,
        response: { 200: deliveryPageSchema },
      },
    },
    async (request) => {
      requireUser(request, 'admin');
      const { status, limit, cursor } = request.query;
      return webhooks.deliveries(request.params.id, { status, limit, cursor });
    },
  );

  app.get(
    '/v1/webhooks/deliveries/:deliveryId',
    {
      schema: {
        tags,
        params: deliveryParamsSchema,
        response: { 200: deliveryDetailResponseSchema },
      },
    },
    async (request) => {
      requireUser(request, 'admin');
      return webhooks.delivery(request.params.deliveryId);
    },
  );

  app.post(
    '/v1/webhooks/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        params: deliveryParamsSchema,
        response: { 201: redeliverResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      const delivery = await webhooks.redeliver(admin.id, request.params.deliveryId);
      return reply.status(201).send({ delivery });
    },
  );
}
