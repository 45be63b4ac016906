import type { FastifyInstance } from 'fastify';
import { journalRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/** The run journal: the agent appends chat, todos, LLM requests and notes; people read them. */
export async function journalRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  registerRoute(app, routes.append, async (request, reply) => {
    const result = await services.journal.append(
      requireAuthenticated(request),
      request.params.id,
      request.body,
    );
    return reply.status(201).send(result);
  });

  registerRoute(app, routes.list, async (request) =>
    services.journal.list(requireAuthenticated(request), request.params.id, request.query),
  );

  registerRoute(app, routes.get, async (request) =>
    services.journal.get(requireAuthenticated(request), request.params.id, request.params.entryId),
  );
}
