import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  checkpointBodySchema,
  checkpointResponseSchema,
  completeRunBodySchema,
  completeRunResponseSchema,
  createRunBodySchema,
  interventionBodySchema,
  interventionListQuerySchema,
  interventionListResponseSchema,
  interventionResponseSchema,
  runParamsSchema as params,
  runDetailResponseSchema,
  runListQuerySchema,
  runListResponseSchema,
  runResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { defined } from '../http/defined.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** Runs: create, read, list, phase checkpoints, completion and interventions. */
export async function runRoutes(base: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['runs'];

  app.post(
    '/v1/runs',
    { schema: { tags, body: createRunBodySchema, response: { 201: runResponseSchema } } },
    async (request, reply) => {
      const run = await services.runs.create(requireAuthenticated(request), request.body);
      return reply.status(201).send({ run });
    },
  );

  app.get(
    '/v1/runs',
    {
      schema: {
        tags,
        querystring: runListQuerySchema,
        response: { 200: runListResponseSchema },
      },
    },
    async (request) => services.runs.list(requireAuthenticated(request), defined(request.query)),
  );

  app.get(
    '/v1/runs/:id',
    {
      schema: {
        tags,
        params,
        response: { 200: runDetailResponseSchema },
      },
    },
    async (request) => services.runs.detail(requireAuthenticated(request), request.params.id),
  );

  app.post(
    '/v1/runs/:id/checkpoint',
    {
      schema: {
        tags,
        params,
        body: checkpointBodySchema,
        response: { 200: checkpointResponseSchema },
      },
    },
    async (request) =>
      services.runs
        .checkpoint(requireAuthenticated(request), request.params.id, request.body)
        .then((result) => services.search.afterCheckpoint(request.params.id, request.body, result)),
  );

  app.post(
    '/v1/runs/:id/complete',
    {
      schema: {
        tags,
        params,
        body: completeRunBodySchema,
        response: { 200: completeRunResponseSchema },
      },
    },
    async (request) => services.runs.complete(requireAuthenticated(request), request.params.id),
  );

  app.post(
    '/v1/runs/:id/interventions',
    {
      schema: {
        tags,
        params,
        body: interventionBodySchema,
        response: { 200: interventionResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      return services.runs.intervene(user, request.params.id, request.body);
    },
  );

  app.get(
    '/v1/runs/:id/interventions',
    {
      schema: {
        tags,
        params,
        querystring: interventionListQuerySchema,
        response: { 200: interventionListResponseSchema },
      },
    },
    async (request) => ({
      items: await services.runs.interventions(
        requireAuthenticated(request),
        request.params.id,
        request.query.after,
      ),
    }),
  );
}
