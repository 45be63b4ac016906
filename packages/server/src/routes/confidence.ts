import type { FastifyInstance } from 'fastify';
import { confidenceRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAgent } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Confidence reports from agents. */
export async function confidenceRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  registerRoute(app, routes.report, async (request) =>
    services.confidence.report(requireAgent(request), request.body),
  );
}
