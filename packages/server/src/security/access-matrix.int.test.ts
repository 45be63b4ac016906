import { createFakeClock } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccessRule,
  isAllowed,
  MATRIX_PRINCIPALS,
  type MatrixPrincipal,
  readAccessRules,
  refusalStatus,
} from '../testing/api-rules.js';
import { refusalStatusOf } from '../testing/claude-code-refusals.js';
import { type ApiRoute, concretePath, listApiRoutes } from '../testing/openapi-routes.js';
import {
  createMatrixObjects,
  headersFor,
  type MatrixObjects,
  objectsForRoute,
  pathValues,
  sampleBody,
} from '../testing/security-fixtures.js';
import { snapshotDiff, snapshotState } from '../testing/state-snapshot.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const rules = readAccessRules();
const discovery = await createTestApp({ dialect: 'sqlite' });
const routes = await listApiRoutes(discovery.app);
await discovery.close();

function ruleFor(route: ApiRoute): AccessRule | undefined {
  return rules.find((rule) => rule.method === route.method && rule.path === route.path);
}

const documented = routes.filter((route) => ruleFor(route) !== undefined);
const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe('the API description', () => {
  it('documents every route of the app in docs/api.md', () => {
    const missing = routes.filter((route) => !ruleFor(route)).map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });

  it('documents the people, agent and audit routes', () => {
    const paths = documented.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(
      expect.arrayContaining(['POST /v1/auth/login', 'PATCH /v1/users/{id}', 'GET /v1/audit/export']),
    );
  });
});

describe.each(dialects)('endpoint × principal matrix on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let objects: MatrixObjects;
  let base: string;

  beforeAll(async () => {
    // A clock that stands still: no deadline passes, so no timeout writes behind the test's back.
    test = await createTestApp({
      dialect,
      clock: createFakeClock(),
      config: { loginAttemptsPerMinute: 10_000 },
    });
    objects = await createMatrixObjects(test);
    base = await test.app.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  /** Over real HTTP on 127.0.0.1. */
  async function call(
    route: ApiRoute,
    principal: MatrixPrincipal,
    target: MatrixObjects,
  ): Promise<{ status: number; text: string }> {
    const body = sampleBody(route, target);
    const headers = await headersFor(test, principal, target);
    const controller = new AbortController();
    const response = await fetch(`${base}${concretePath(route, pathValues(route, target))}`, {
      method: route.method,
      signal: controller.signal,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // An event stream that let the caller in stays open: its status is the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: response.status, text: '' };
    }
    // An event stream never ends by itself: its status is all this test needs.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, text: '' };
    }
    const status = refusalStatusOf(route.path, response.status, response.headers.get('x-gatehouse-error'));
    return { status, text: (await response.text()).slice(0, 200) };
  }

  it.each(documented.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s lets in exactly the principals docs/api.md names, and refusals change nothing',
    async (_name, route) => {
      const rule = ruleFor(route) as AccessRule;
      const failures: string[] = [];
      const routeObjects = await objectsForRoute(test, route, objects);
      // Refused principals first, so no allowed call has changed the objects they point at.
      const order = [...MATRIX_PRINCIPALS].sort(
        (a, b) => Number(isAllowed(rule, a)) - Number(isAllowed(rule, b)),
      );
      for (const principal of order) {
        const allowed = isAllowed(rule, principal);
        const before = allowed ? '' : await snapshotState(test.store);
        const { status, text } = await call(route, principal, routeObjects);
        if (status >= 500) failures.push(`${principal}: ${status} ${text}`);
        else if (allowed && !rule.anyone && (status === 401 || status === 403)) {
          failures.push(`${principal} should get in (${rule.who}) but got ${status} ${text}`);
        } else if (!allowed) {
          if (status !== refusalStatus(principal)) {
            const expected = refusalStatus(principal);
            failures.push(`${principal} should get ${expected} (${rule.who}) but got ${status} ${text}`);
          }
          const changed = snapshotDiff(before, await snapshotState(test.store));
          if (changed.length > 0)
            failures.push(`${principal}: a refused request changed ${changed.join(', ')}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});
