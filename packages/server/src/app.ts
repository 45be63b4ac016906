import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { createBearerJwtVerifier } from './auth/mcp-oauth.js';
import type { AppContext, AppDeps } from './context.js';
import { createCommittedGates } from './events/committed-gates.js';
import { registerDocsHeaders } from './http/docs-headers.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerGateArgsLimit } from './http/gate-limits.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerOriginCheck } from './http/origin.js';
import { type BearerJwtPrincipals, registerPrincipalHook } from './http/principal.js';
import { registerRateLimits } from './http/rate-limit.js';
import { siteOrigin } from './http/site-origin.js';
import { registerWebApp } from './http/web-app.js';
import { createRandomIds } from './ids.js';
import { registerRoutes } from './routes/index.js';
import { createServices, type Services } from './services/index.js';
import { NOTIFICATION_CHANNEL_DEFINITIONS } from './services/notifications/channels/index.js';
import { recordGateSpans } from './telemetry/gate-spans.js';
import { registerRequestSpans } from './telemetry/request-spans.js';
import { startTelemetry, type TelemetryOptions } from './telemetry/telemetry.js';
import { createOutboxSignal } from './webhooks/outbox.js';
import { trackWrites } from './write-health.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The context and services the app was built with, for start-up code and tests. */
    gatehouse: { context: AppContext; services: Services };
  }
}

/** With OAuth for MCP configured, the provider's JWTs are credentials too. */
function bearerJwtPrincipals(deps: AppDeps): BearerJwtPrincipals | null {
  const { config, store } = deps;
  if (config.sso === null || config.mcpOAuth === null) return null;
  const { agentName } = config.mcpOAuth;
  let agentId: string | null = null;
  return {
    verify: createBearerJwtVerifier(config.sso),
    async agentId() {
      agentId ??=
        (await store.read((tx) => tx.listAgents())).find((agent) => agent.name === agentName)?.id ?? null;
      return agentId;
    },
    originOf: (request) => siteOrigin(config, request),
  };
}

/** Builds the Fastify app without listening; `main.ts` listens. */
export async function buildApp(
  deps: AppDeps,
  options: {
    logger?: boolean | object;
    /** Traces and metrics to these exporters, whatever the config says (tests' in-memory ones). */
    telemetry?: TelemetryOptions;
  } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: deps.config.bodyLimit,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    forceCloseConnections: true,
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const webApp = deps.uiDir ? await registerWebApp(app, deps.uiDir) : false;
  registerErrorHandler(app, { webApp, bodyLimit: deps.config.bodyLimit });
  registerJsonBodyParser(app, { depthLimit: deps.config.jsonDepthLimit });
  registerDocsHeaders(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Gatehouse API',
        description: 'Human-in-the-loop control plane for AI agents',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  const telemetry = await startTelemetry(deps.config.telemetry, options.telemetry);
  if (telemetry !== null) registerRequestSpans(app, telemetry);
  const writes = trackWrites(deps.store);
  const context: AppContext = {
    store: writes.store,
    writeHealth: writes.health,
    logDropped: deps.logDropped ?? (() => 0),
    hostSecret: deps.hostSecret ?? null,
    mcp: deps.mcp ?? null,
    notificationChannels: deps.notificationChannels ?? NOTIFICATION_CHANNEL_DEFINITIONS,
    bus: deps.bus,
    clock: deps.clock,
    config: deps.config,
    ids: deps.ids ?? createRandomIds(),
    log: app.log,
    outbox: createOutboxSignal(),
    notices: createOutboxSignal(),
    telemetry,
    committedGates: createCommittedGates(),
  };
  // Origin first: a cross-site write is refused before its credential is even looked up.
  registerOriginCheck(app, deps.config);
  registerPrincipalHook(app, deps.store, () => deps.clock.now(), bearerJwtPrincipals(deps));
  registerRateLimits(app, deps.config.rateLimits, () => deps.clock.now());
  registerGateArgsLimit(app, deps.config.gateArgsLimitBytes);
  const services = await createServices(context);
  app.decorate('gatehouse', { context, services });
  await registerRoutes(app, context, services);
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.addHook('onReady', async () => {
    await services.start();
  });
  const stopGateSpans = telemetry === null ? null : recordGateSpans(context, telemetry);
  app.addHook('onClose', async () => {
    await services.close();
    stopGateSpans?.();
    // A collector that cannot be reached loses the last batch; it does not fail the shutdown.
    await telemetry
      ?.shutdown()
      .catch((err: unknown) => app.log.warn({ err }, 'telemetry could not be flushed'));
  });
  return app;
}
