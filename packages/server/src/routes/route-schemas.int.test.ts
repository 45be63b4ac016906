import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import * as protocol from 'gatehouse-hitl-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.js';
import { registerRoutes } from './index.js';

const SCHEMA_PARTS = ['body', 'querystring', 'params', 'headers'] as const;
/** Routes that answer something other than JSON, so they have no response schema to share. */
const NOT_JSON = new Set([
  'GET /metrics',
  'GET /v1/audit/export',
  'GET /mcp',
  'POST /mcp',
  'DELETE /mcp',
  // The emailed link's confirmation page and its form's answer are HTML.
  'GET /v1/email-actions',
  'POST /v1/email-actions',
  // Single sign-on redirects the browser to the provider and back (302).
  'GET /v1/auth/sso/start',
  'GET /v1/auth/sso/callback',
]);

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

interface RouteSchemas {
  name: string;
  parts: Array<{ part: string; schema: unknown }>;
}

/** Every route the server registers, with the schemas it validates and serializes with. */
async function registeredRoutes(testApp: TestApp): Promise<RouteSchemas[]> {
  const seen: RouteSchemas[] = [];
  const probe = Fastify();
  probe.setValidatorCompiler(validatorCompiler);
  probe.setSerializerCompiler(serializerCompiler);
  probe.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const parts: { part: string; schema: unknown }[] = SCHEMA_PARTS.filter(
      (part) => schema[part] !== undefined,
    ).map((part) => ({
      part,
      schema: schema[part],
    }));
    const responses = (schema.response ?? {}) as Record<string, unknown>;
    for (const [status, response] of Object.entries(responses))
      parts.push({ part: `response ${status}`, schema: response });
    for (const method of methods) {
      if (method === 'HEAD') continue;
      seen.push({ name: `${method} ${route.url}`, parts });
    }
  });
  await registerRoutes(probe, testApp.ctx, testApp.services);
  await probe.ready();
  await probe.close();
  return seen;
}

describe('route schemas', () => {
  let testApp: TestApp;
  let routes: RouteSchemas[];
  // The protocol's exports and every schema its route table names (a route may define one inline).
  const shared = new Set<unknown>([
    ...Object.values(protocol),
    ...protocol
      .listRoutes()
      .flatMap(({ route }) => [
        route.params,
        route.query,
        route.body,
        route.headers,
        ...Object.values(route.response),
      ]),
  ]);

  beforeAll(async () => {
    testApp = await createTestApp({ dialect: 'sqlite' });
    routes = await registeredRoutes(testApp);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('validates and answers every route with schemas exported by gatehouse-hitl-protocol', () => {
    expect(routes.length).toBeGreaterThan(50);
    const ownSchemas = routes.flatMap((route) =>
      route.parts.filter(({ schema }) => !shared.has(schema)).map(({ part }) => `${route.name}: ${part}`),
    );
    expect(ownSchemas).toEqual([]);
  });

  it('describes the answer of every JSON route', () => {
    const unanswered = routes
      .filter((route) => !NOT_JSON.has(route.name))
      .filter((route) => !route.parts.some(({ part }) => part.startsWith('response 2')))
      .map((route) => route.name);
    expect(unanswered).toEqual([]);
  });
});
