import type { FastifyInstance } from 'fastify';
import { metricsRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { sendWebAppPage } from '../http/web-app.js';
import type { Services } from '../services/index.js';

/**
 * `/metrics` is open to anyone who can reach the server: it holds counts only, no secrets
 * and no names. The JSON summary needs a person.
 */
export async function metricsRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  // The web app has a /metrics screen too: a browser loading it asks for HTML, scrapers for text.
  const webApp = app.hasReplyDecorator('sendFile');

  registerRoute(app, routes.prometheus, async (request, reply) => {
    if (webApp && (request.headers.accept ?? '').includes('text/html')) return sendWebAppPage(reply);
    void reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8');
    return reply.send(await services.metrics.render());
  });

  registerRoute(app, routes.summary, async (request) => {
    requireUser(request, 'viewer');
    return services.metrics.summary();
  });
}

/** Counts every HTTP response, and times it, by method, route pattern and status. */
export function registerHttpMetrics(app: FastifyInstance, services: Services): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.observeHttp(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
