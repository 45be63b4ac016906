import type { FastifyInstance } from 'fastify';
import { healthRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: 503 without the database,
 * while writes fail, or while the event listener is down, so a load balancer sends work
 * elsewhere). A node shutting down takes no new connections at all.
 */
export async function healthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  _services: Services,
): Promise<void> {
  registerRoute(app, routes.liveness, async () => ({ ok: true as const }));
  registerRoute(app, routes.readiness, async (_request, reply) => {
    const database = await ctx.store.ping().catch(() => false);
    const writes = database && (await ctx.writeHealth.isHealthy());
    const checks = { database, events: ctx.bus.isReady(), writes };
    const ready = Object.values(checks).every(Boolean);
    return reply.status(ready ? 200 : 503).send({ ready, checks });
  });
}
