import type { FastifyInstance, FastifyRequest } from 'fastify';
import { workspaceRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { defined } from '../http/defined.js';
import { requireAuthenticated } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** `scheme://host[:port]` the request was sent to: the clone URL's base when no public URL is set. */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** A run's workspace: its clone URL and branches, and its files, history and diffs at any ref. */
export async function workspaceRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const workspace = services.workspace;

  registerRoute(app, routes.summary, async (request) =>
    workspace.summary(requireAuthenticated(request), request.params.id, originOf(request)),
  );

  registerRoute(app, routes.files, async (request) =>
    workspace.files(requireAuthenticated(request), request.params.id, defined(request.query)),
  );

  registerRoute(app, routes.file, async (request) =>
    workspace.file(requireAuthenticated(request), request.params.id, request.query),
  );

  registerRoute(app, routes.log, async (request) =>
    workspace.log(requireAuthenticated(request), request.params.id, defined(request.query)),
  );

  registerRoute(app, routes.show, async (request) =>
    workspace.show(requireAuthenticated(request), request.params.id, request.query),
  );

  registerRoute(app, routes.diff, async (request) =>
    workspace.diff(requireAuthenticated(request), request.params.id, defined(request.query)),
  );
}
