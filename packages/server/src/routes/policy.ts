import type { FastifyInstance } from 'fastify';
import { policyRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** The policy: read, replace (validated, versioned, audited), history, dry run. */
export async function policyRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  // Agents read the rules too (guardrails context), so they know what to ask about before acting.
  registerRoute(app, routes.get, async (request) => {
    if (requireAuthenticated(request).kind === 'user') requireUser(request, 'viewer');
    return services.policies.get();
  });

  registerRoute(app, routes.replace, async (request) => {
    const admin = requireUser(request, 'admin');
    return services.policies.replace(admin.id, request.body);
  });

  registerRoute(app, routes.dryRun, async (request) => {
    requireUser(request, 'developer');
    return services.policies.dryRun(request.body);
  });

  registerRoute(app, routes.versions, async (request) => {
    requireUser(request, 'viewer');
    return { versions: await services.policies.versions() };
  });

  registerRoute(app, routes.version, async (request) => {
    requireUser(request, 'viewer');
    return services.policies.version(request.params.version);
  });
}
