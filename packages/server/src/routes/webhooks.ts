import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';
import {
  attemptWireSchema,
  createWebhookBody,
  deliveriesQuery,
  deliveryIdSchema,
  deliveryWireSchema,
  secretSchema,
  updateWebhookBody,
  webhookIdSchema,
  webhookWireSchema,
} from './webhook-schemas.js';

const params = z.strictObject({ id: webhookIdSchema });
const deliveryParams = z.strictObject({ deliveryId: deliveryIdSchema });

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
        body: createWebhookBody,
        response: { 201: z.object({ webhook: webhookWireSchema, secret: secretSchema }) },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      return reply.status(201).send(await webhooks.create(admin.id, request.body));
    },
  );

  app.get(
    '/v1/webhooks',
    { schema: { tags, response: { 200: z.object({ webhooks: z.array(webhookWireSchema) }) } } },
    async (request) => {
      requireUser(request, 'admin');
      return { webhooks: await webhooks.list() };
    },
  );

  app.get(
    '/v1/webhooks/:id',
    { schema: { tags, params, response: { 200: z.object({ webhook: webhookWireSchema }) } } },
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
        body: updateWebhookBody,
        response: { 200: z.object({ webhook: webhookWireSchema, secret: secretSchema.nullable() }) },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return webhooks.update(admin.id, request.params.id, request.body);
    },
  );

  app.delete(
    '/v1/webhooks/:id',
    { schema: { tags, params, response: { 200: z.object({ webhook: webhookWireSchema }) } } },
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
        querystring: deliveriesQuery,
        response: {
          200: z.object({ items: z.array(deliveryWireSchema), nextCursor: z.string().nullable() }),
        },
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
        params: deliveryParams,
        response: {
          200: z.object({
            delivery: deliveryWireSchema,
            attempts: z.array(attemptWireSchema),
            event: z.unknown().describe('The JSON body every attempt sends'),
          }),
        },
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
        params: deliveryParams,
        response: { 201: z.object({ delivery: deliveryWireSchema }) },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      const delivery = await webhooks.redeliver(admin.id, request.params.deliveryId);
      return reply.status(201).send({ delivery });
    },
  );
}
