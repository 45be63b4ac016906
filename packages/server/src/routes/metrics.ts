import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GATE_STATUSES } from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { sendWebAppPage } from '../http/web-app.js';
import type { Services } from '../services/index.js';

const rate = z.number().nullable();
const figures = {
  allowed: z.number().describe('Requests the policy allowed at once'),
  denied: z.number().describe('Requests the policy denied at once'),
  gates: z.number().describe('Gates opened'),
  pending: z.number(),
  decided: z.number().describe('Gates ended by a person'),
  approved: z.number(),
  rejected: z.number(),
  steered: z.number(),
  resolved: z.number(),
  expired: z.number(),
  cancelled: z.number(),
  escalationRate: rate.describe('gates / (allowed + denied + gates)'),
  approvalRate: rate.describe('approved / decided'),
  timeToDecision: z.object({
    count: z.number(),
    medianSeconds: z.number().nullable(),
    p90Seconds: z.number().nullable(),
  }),
};

const bucketSchema = z.object({
  start: z.number().describe('Bucket start, epoch ms'),
  gates: z.number().describe('Gates opened in the bucket'),
  ...Object.fromEntries(
    GATE_STATUSES.map((status) => [status, z.number().describe(`Of them, now ${status}`)]),
  ),
});

const summarySchema = z.object({
  generatedAt: z.number(),
  totals: z.object(figures),
  byAgent: z.array(z.object({ agentId: z.string().nullable(), ...figures })),
  byType: z.array(z.object({ type: z.string(), ...figures })),
  overTime: z
    .object({
      bucketSeconds: z.number().describe('Bucket size: the smallest that spans first gate to now in ≤ 30'),
      buckets: z.array(bucketSchema).describe('Oldest first, empty buckets included'),
    })
    .describe('Gates over time by the bucket they opened in and their status now'),
});

/**
 * `/metrics` is open to anyone who can reach the server: it holds counts only, no secrets
 * and no names. The JSON summary needs a person.
 */
export async function metricsRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  // The web app has a /metrics screen too: a browser loading it asks for HTML, scrapers for text.
  const webApp = base.hasReplyDecorator('sendFile');

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (webApp && (request.headers.accept ?? '').includes('text/html')) return sendWebAppPage(reply);
    void reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    return reply.send(await services.metrics.render());
  });

  app.get(
    '/v1/metrics/summary',
    { schema: { tags: ['metrics'], response: { 200: summarySchema } } },
    async (request) => {
      requireUser(request, 'viewer');
      return services.metrics.summary();
    },
  );
}

/** Counts every HTTP response by method, route pattern and status. */
export function registerHttpMetrics(app: FastifyInstance, services: Services): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.observeHttp(request.method, route, reply.statusCode);
  });
}
