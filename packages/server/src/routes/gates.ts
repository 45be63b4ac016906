import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { gateOutcomeFor } from 'gatehouse-hitl-core';
import {
  gateListQuerySchema,
  gateListResponseSchema,
  gateParamsSchema,
  gateRequestBodySchema,
  gateRequestHeadersSchema,
  gateRequestResponseSchema,
  gateViewResponseSchema,
  gateWaitQuerySchema,
  gateWaitResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { defined } from '../http/defined.js';
import { requireAgent, requireAuthenticated, requireUser } from '../http/principal.js';
import { plainResponseSerializer } from '../http/response-serializer.js';
import type { Services } from '../services/index.js';
import { standingScopesOf } from '../services/policy/rule-service.js';
import { assertStillValid } from '../services/streams/stream-credentials.js';
import { gateActionRoutes } from './gate-actions.js';
import { credentialOf } from './streams.js';

/** Gates: requests from agents, listing, reading and long-polling. */
export async function gateRoutes(base: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['gates'];

  app.post(
    '/v1/gates',
    {
      schema: {
        tags,
        body: gateRequestBodySchema,
        headers: gateRequestHeadersSchema,
        response: { 200: gateRequestResponseSchema },
      },
      serializerCompiler: plainResponseSerializer,
    },
    async (request) => {
      const agent = requireAgent(request);
      const key = request.headers['idempotency-key'];
      return services.gates.request(agent, { ...request.body, idempotencyKey: key });
    },
  );

  app.get(
    '/v1/gates',
    {
      schema: {
        tags,
        querystring: gateListQuerySchema,
        response: { 200: gateListResponseSchema },
      },
    },
    async (request) => {
      const principal = requireAuthenticated(request);
      if (principal.kind === 'user') requireUser(request, 'viewer');
      return services.gates.list(principal, defined(request.query));
    },
  );

  app.get(
    '/v1/gates/:id',
    {
      schema: { tags, params: gateParamsSchema, response: { 200: gateViewResponseSchema } },
      serializerCompiler: plainResponseSerializer,
    },
    async (request) => {
      const principal = requireAuthenticated(request);
      const view = await services.gates.view(principal, request.params.id);
      return {
        ...view,
        briefing: (view.briefing ?? null) as Record<string, unknown> | null,
        standingScopes: standingScopesOf(view.gate),
      };
    },
  );

  app.get(
    '/v1/gates/:id/wait',
    {
      schema: {
        tags,
        params: gateParamsSchema,
        querystring: gateWaitQuerySchema,
        response: { 200: gateWaitResponseSchema },
      },
      serializerCompiler: plainResponseSerializer,
    },
    async (request, reply) => {
      const principal = requireAuthenticated(request);
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort();
      };
      reply.raw.on('close', onClose);
      try {
        const gate = await services.gates.wait(
          principal,
          request.params.id,
          request.query.timeoutMs,
          controller.signal,
        );
        // A caller revoked while it waited learns nothing: the per-request check ran before the wait.
        const credential = request.query.timeoutMs > 0 ? credentialOf(request, principal) : null;
        if (credential !== null) await assertStillValid(ctx, credential);
        return { gate, outcome: gateOutcomeFor(gate) };
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  await gateActionRoutes(app, ctx, services);
}
