import { listRoutes } from 'gatehouse-hitl-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiRoute, listApiRoutes } from '../testing/openapi-routes.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9]+)/g, '{$1}');

describe("the protocol's route table", () => {
  let app: TestApp<{ now(): number }>;
  let documented: ApiRoute[];
  beforeAll(async () => {
    // The host route is registered only with a host secret, as `gatehouse serve` gives one.
    app = await createTestApp({ dialect: 'sqlite', hostSecret: 'route-table-host-secret' });
    documented = await listApiRoutes(app.app);
  });
  afterAll(() => app.close());

  it('gives every route a success response schema (a redirect for the routes a browser is sent through)', () => {
    const without = listRoutes()
      .filter(({ route }) => !Object.keys(route.response).some((status) => Number(status) < 400))
      .map(({ name }) => name);
    expect(without).toEqual([]);
  });

  it('names each route once: no two entries share a method and path', () => {
    const keys = listRoutes().map(({ route }) => `${route.method} ${route.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('is what the server registers and the OpenAPI document describes', () => {
    const registered = new Set(documented.map((route) => `${route.method} ${route.path}`));
    const missing = listRoutes()
      .filter(({ route }) => !route.hide)
      .map(({ route }) => `${route.method} ${openApiPath(route.path)}`)
      .filter((key) => !registered.has(key));
    expect(missing).toEqual([]);
  });
});
