import type { FastifyInstance } from 'fastify';
import { trustRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** Tech leads and admins change what is learned; anyone who may decide can report harm. */
const DECIDES_TRUST = 'tech_lead';

/** Trust proposals from the decision history, and the rules people accepted from them. */
export async function trustRoutes(app: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.proposals, async (request) => {
    requireUser(request, 'viewer');
    return { proposals: await services.trust.proposals({ status: request.query.status }) };
  });

  registerRoute(app, routes.accept, async (request) => {
    const user = requireUser(request, DECIDES_TRUST);
    return services.trust.accept(user.id, request.params.id, request.body ?? {});
  });

  registerRoute(app, routes.dismiss, async (request) => {
    const user = requireUser(request, DECIDES_TRUST);
    return { proposal: await services.trust.dismiss(user.id, request.params.id, request.body ?? {}) };
  });

  registerRoute(app, routes.rules, async (request) => {
    requireUser(request, 'viewer');
    return { rules: await services.trust.rules({ includeEnded: request.query.includeEnded }) };
  });

  registerRoute(app, routes.revoke, async (request) => {
    const user = requireUser(request, DECIDES_TRUST);
    const input = { reason: request.body?.reason, harmful: false };
    return { rule: await services.trust.revoke(user.id, request.params.id, input) };
  });

  registerRoute(app, routes.harmful, async (request) => {
    const user = requireUser(request, 'developer');
    const input = { reason: request.body?.reason, harmful: true };
    return { rule: await services.trust.revoke(user.id, request.params.id, input) };
  });
}
