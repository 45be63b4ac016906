import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { Services } from '../services/index.js';

/** Liveness and readiness: not ready without the database. */
export async function healthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  _services: Services,
): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = await ctx.store.ping().catch(() => false);
    return reply.status(ready ? 200 : 503).send({ ready, checks: { database: ready } });
  });
}
