import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  analyzeBodySchema,
  analyzeResponseSchema,
  findingReportBodySchema,
  findingReportResponseSchema,
  recoveryListResponseSchema,
  runParamsSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

const tags = ['analysis'];

/** Change analysis: findings and verdicts, gates in a run, findings reported wrong, recovery state. */
export async function analysisRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/analyze',
    { schema: { tags, body: analyzeBodySchema, response: { 200: analyzeResponseSchema } } },
    async (request) => services.analysis.analyze(requireAuthenticated(request), request.body),
  );
  app.post(
    '/v1/analyze/findings/report',
    { schema: { tags, body: findingReportBodySchema, response: { 201: findingReportResponseSchema } } },
    async (request, reply) => {
      const gate = await services.analysis.reportFinding(requireUser(request, 'developer'), request.body);
      return reply.status(201).send({ gate });
    },
  );
  app.get(
    '/v1/runs/:id/recoveries',
    { schema: { tags, params: runParamsSchema, response: { 200: recoveryListResponseSchema } } },
    async (request) => ({
      recoveries: await services.analysis.recoveries(requireAuthenticated(request), request.params.id),
    }),
  );
}
