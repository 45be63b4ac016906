import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { confidenceReportBodySchema, confidenceReportResponseSchema } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAgent } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** Confidence reports from agents. */
export async function confidenceRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/confidence',
    {
      schema: {
        tags: ['confidence'],
        body: confidenceReportBodySchema,
        response: { 200: confidenceReportResponseSchema },
      },
    },
    async (request) => services.confidence.report(requireAgent(request), request.body),
  );
}
