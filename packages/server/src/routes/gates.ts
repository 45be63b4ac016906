import type { FastifyInstance } from 'fastify';
import { gateOutcomeFor } from 'gatehouse-hitl-core';
import { gateRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { defined } from '../http/defined.js';
import { assertStillCaller, requireAgent, requireAuthenticated, requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { plainResponseSerializer } from '../http/response-serializer.js';
import type { Services } from '../services/index.js';
import { standingScopesOf } from '../services/policy/rule-service.js';
import { announceGateSpan, gateTraceContextFor } from '../telemetry/gate-requests.js';
import { gateActionRoutes } from './gate-actions.js';

/** Gates: requests from agents, listing, reading and long-polling. */
export async function gateRoutes(app: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  const plain = { serializerCompiler: plainResponseSerializer };

  registerRoute(
    app,
    routes.request,
    async (request) => {
      const agent = requireAgent(request);
      const key = request.headers['idempotency-key'];
      const traceContext = gateTraceContextFor(ctx, request);
      const options = traceContext === null ? {} : { traceContext };
      const answer = await services.gates.request(agent, { ...request.body, idempotencyKey: key }, options);
      if (traceContext !== null && answer.gateId !== null)
        await announceGateSpan(ctx, request, answer.gateId);
      return answer;
    },
    plain,
  );

  registerRoute(app, routes.list, async (request) => {
    const principal = requireAuthenticated(request);
    if (principal.kind === 'user') requireUser(request, 'viewer');
    return services.gates.list(principal, defined(request.query));
  });

  registerRoute(
    app,
    routes.get,
    async (request) => {
      const principal = requireAuthenticated(request);
      const view = await services.gates.view(principal, request.params.id);
      return {
        ...view,
        briefing: (view.briefing ?? null) as Record<string, unknown> | null,
        standingScopes: standingScopesOf(view.gate),
      };
    },
    plain,
  );

  registerRoute(
    app,
    routes.wait,
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
        // The per-request check ran before the wait: a caller revoked while it waited learns nothing.
        if (request.query.timeoutMs > 0) await assertStillCaller(app, request);
        return { gate, outcome: gateOutcomeFor(gate) };
      } finally {
        reply.raw.off('close', onClose);
      }
    },
    plain,
  );

  await gateActionRoutes(app, ctx, services);
}
