import type { FastifyInstance } from 'fastify';
import { analysisRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Change analysis: findings and verdicts, gates in a run, findings reported wrong, recovery state. */
export async function analysisRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  registerRoute(app, routes.analyze, async (request) =>
    services.analysis.analyze(requireAuthenticated(request), request.body),
  );
  registerRoute(app, routes.reportFinding, async (request, reply) => {
    const gate = await services.analysis.reportFinding(requireUser(request, 'developer'), request.body);
    return reply.status(201).send({ gate });
  });
  registerRoute(app, routes.recoveries, async (request) => ({
    recoveries: await services.analysis.recoveries(requireAuthenticated(request), request.params.id),
  }));
}
