import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { nextCursorSchema, opaqueCursorSchema, pageLimitSchema } from './ids.js';

/** What a webhook can subscribe to; each announces the audit event of the same name. */
export const WEBHOOK_EVENT_TYPES = [
  'gate.opened',
  'gate.decided',
  'gate.expired',
  'gate.escalated',
  'gate.cancelled',
  'run.paused',
  'run.resumed',
  'run.stopped',
  'run.steered',
  'run.completed',
  'confidence.escalated',
  'audit.checkpoint',
] as const;

export const webhookIdSchema = z
  .string()
  .regex(/^wh_[A-Za-z0-9_]{1,64}$/, 'a webhook id looks like wh_…')
  .describe('Webhook id');

export const deliveryIdSchema = z
  .string()
  .regex(/^whd_[A-Za-z0-9_]{1,64}$/, 'a delivery id looks like whd_…')
  .describe('Delivery id');

export const webhookEventTypeSchema = z
  .enum(WEBHOOK_EVENT_TYPES)
  .describe('An event a webhook can subscribe to (docs/webhooks.md)');

export const deliveryStatusSchema = z
  .enum(['pending', 'succeeded', 'dead'])
  .describe('pending (waiting for its next attempt), succeeded (a 2xx came back) or dead (out of attempts)');

const urlSchema = z
  .string()
  .min(1)
  .max(2048)
  .describe('Where events are POSTed: an http:// or https:// URL, registered by an admin');
const eventsSchema = z.array(webhookEventTypeSchema).min(1).max(WEBHOOK_EVENT_TYPES.length);
const descriptionSchema = z.string().max(500);

/** `POST /v1/webhooks`. */
export const createWebhookBodySchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema.describe('The events it receives'),
  description: descriptionSchema.optional().describe('What it is for'),
  enabled: z.boolean().optional().describe('A disabled webhook gets no new deliveries (default true)'),
});

/** `PATCH /v1/webhooks/:id`. */
export const updateWebhookBodySchema = z.strictObject({
  url: urlSchema.optional(),
  events: eventsSchema.optional().describe('The events it receives, replacing the old list'),
  description: descriptionSchema.nullable().optional().describe('What it is for; null removes it'),
  enabled: z.boolean().optional().describe('A disabled webhook gets no new deliveries'),
  rotateSecret: z
    .boolean()
    .optional()
    .describe('Replace the signing secret now; the new one is in this answer only'),
});

export const webhookDocumentSchema = z
  .object({
    id: z.string().describe('Webhook id'),
    url: z.string().describe('Where events are POSTed'),
    events: z.array(z.string()).describe('The events it receives'),
    description: z.string().nullable().describe('What it is for'),
    enabled: z.boolean().describe('False: no new deliveries'),
    createdBy: z.string().describe('user:<id>'),
    createdAt: z.number().describe('Epoch ms'),
    updatedAt: z.number().describe('Epoch ms'),
  })
  .describe('A webhook (its secret is shown only when it is created or rotated)');

const secretSchema = z
  .string()
  .describe('Signing secret (whsec_…): shown only in this answer; keep it where the receiver can read it');

export const deliveryDocumentSchema = z
  .object({
    id: z.string().describe('Delivery id'),
    webhookId: z.string().describe('The webhook it goes to'),
    eventId: z.string().describe('Stable event id (Gatehouse-Event-Id), also on redeliveries'),
    eventType: z.string().describe('The event type'),
    status: deliveryStatusSchema,
    attempts: z.number().describe('Attempts started so far'),
    nextAttemptAt: z.number().nullable().describe('Epoch ms of the next attempt; null once ended'),
    claimedUntil: z.number().nullable().describe('A node is attempting it until then (epoch ms)'),
    lastAttemptAt: z.number().nullable().describe('Epoch ms'),
    lastStatusCode: z
      .number()
      .nullable()
      .describe('HTTP status of the last attempt; null without a response'),
    lastError: z.string().nullable().describe('Why the last attempt failed'),
    redeliveryOf: z.string().nullable().describe('The delivery this one sends again'),
    createdAt: z.number().describe('Epoch ms'),
    updatedAt: z.number().describe('Epoch ms'),
  })
  .describe('One event on its way to one webhook');

export const attemptDocumentSchema = z
  .object({
    attempt: z.number().describe('1 for the first attempt'),
    startedAt: z.number().describe('Epoch ms'),
    durationMs: z.number().nullable().describe('Until the response (or the failure)'),
    statusCode: z.number().nullable().describe('HTTP status; null when no response came'),
    responseExcerpt: z.string().nullable().describe('The start of the response body (≤ 500 characters)'),
    error: z.string().nullable().describe('Why it failed: HTTP status, timeout, connection error'),
  })
  .describe('One attempt of a delivery');

/** `:id` of every `/v1/webhooks/:id…` route. */
export const webhookParamsSchema = z.strictObject({ id: webhookIdSchema });

/** `:deliveryId` of every `/v1/webhooks/deliveries/:deliveryId…` route. */
export const deliveryParamsSchema = z.strictObject({ deliveryId: deliveryIdSchema });

export const createWebhookResponseSchema = z.object({ webhook: webhookDocumentSchema, secret: secretSchema });

export const updateWebhookResponseSchema = z.object({
  webhook: webhookDocumentSchema,
  secret: secretSchema.nullable(),
});

export const webhookResponseSchema = z.object({ webhook: webhookDocumentSchema });

export const webhookListResponseSchema = z.object({ webhooks: z.array(webhookDocumentSchema) });

/** `GET /v1/webhooks/:id/deliveries`. */
export const deliveriesQuerySchema = z.strictObject({
  status: deliveryStatusSchema.optional(),
  limit: pageLimitSchema(50),
  cursor: opaqueCursorSchema.optional(),
});

export const deliveryPageSchema = z.object({
  items: z.array(deliveryDocumentSchema),
  nextCursor: nextCursorSchema,
});

/** `GET /v1/webhooks/deliveries/:deliveryId`. */
export const deliveryDetailResponseSchema = z.object({
  delivery: deliveryDocumentSchema,
  attempts: z.array(attemptDocumentSchema),
  event: z.unknown().describe('The JSON body every attempt sends'),
});

/** `POST /v1/webhooks/deliveries/:deliveryId/redeliver`. */
export const redeliverResponseSchema = z.object({ delivery: deliveryDocumentSchema });

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;
export type CreateWebhookBody = z.input<typeof createWebhookBodySchema>;
export type UpdateWebhookBody = z.input<typeof updateWebhookBodySchema>;
export type WebhookDocument = z.infer<typeof webhookDocumentSchema>;
export type DeliveryDocument = z.infer<typeof deliveryDocumentSchema>;
export type AttemptDocument = z.infer<typeof attemptDocumentSchema>;
export type CreateWebhookResponse = z.infer<typeof createWebhookResponseSchema>;
export type UpdateWebhookResponse = z.infer<typeof updateWebhookResponseSchema>;
export type WebhookResponse = z.infer<typeof webhookResponseSchema>;
export type WebhookListResponse = z.infer<typeof webhookListResponseSchema>;
export type DeliveriesQuery = z.input<typeof deliveriesQuerySchema>;
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;
export type DeliveryDetailResponse = z.infer<typeof deliveryDetailResponseSchema>;
export type RedeliverResponse = z.infer<typeof redeliverResponseSchema>;

const tags = ['webhooks'];
const params = webhookParamsSchema;

/** Webhooks: admin only, because an admin is trusted with where the server sends requests. */
export const webhookRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/v1/webhooks',
    tags,
    body: createWebhookBodySchema,
    response: { 201: createWebhookResponseSchema },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/v1/webhooks',
    tags,
    response: { 200: webhookListResponseSchema },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:id',
    tags,
    params,
    response: { 200: webhookResponseSchema },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/v1/webhooks/:id',
    tags,
    params,
    body: updateWebhookBodySchema,
    response: { 200: updateWebhookResponseSchema },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    tags,
    params,
    response: { 200: webhookResponseSchema },
  }),
  deliveries: defineRoute({
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries',
    tags,
    params,
    query: deliveriesQuerySchema,
    response: { 200: deliveryPageSchema },
  }),
  delivery: defineRoute({
    method: 'GET',
    path: '/v1/webhooks/deliveries/:deliveryId',
    tags,
    params: deliveryParamsSchema,
    response: { 200: deliveryDetailResponseSchema },
  }),
  redeliver: defineRoute({
    method: 'POST',
    path: '/v1/webhooks/deliveries/:deliveryId/redeliver',
    tags,
    params: deliveryParamsSchema,
    response: { 201: redeliverResponseSchema },
  }),
};
