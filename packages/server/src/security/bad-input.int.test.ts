import { createFakeClock } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessRule, type MatrixPrincipal, readAccessRules } from '../testing/api-rules.js';
import { CLAUDE_CODE_HOOK_PATHS, refusalStatusOf } from '../testing/claude-code-refusals.js';
import {
  type ApiRoute,
  concretePath,
  type JsonSchema,
  listApiRoutes,
  wrongTypeFor,
} from '../testing/openapi-routes.js';
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
/** Slack signs the form it posts; unsigned bodies are refused before they are read (slack.int.test.ts sends signed bad ones). */
const SIGNED_FORM_PATHS = new Set(['/v1/slack/interactions']);
const writeRoutes = (await listApiRoutes(discovery.app)).filter(
  (route) => ['POST', 'PUT', 'PATCH'].includes(route.method) && !SIGNED_FORM_PATHS.has(route.path),
);
await discovery.close();

function ruleFor(route: ApiRoute): AccessRule | undefined {
  return rules.find((rule) => rule.method === route.method && rule.path === route.path);
}

/** Someone the route lets in, so the body is what gets judged. */
function callerFor(route: ApiRoute): MatrixPrincipal {
  const rule = ruleFor(route);
  if (!rule || rule.anyone) return 'anonymous';
  if (rule.minRole !== null) return 'admin';
  return 'agent';
}

interface BadBody {
  label: string;
  payload: string;
  expect: number;
  /** A field the error must name. */
  names?: string;
}

function badBodies(route: ApiRoute, sample: unknown): BadBody[] {
  const base = typeof sample === 'object' && sample !== null ? (sample as Record<string, unknown>) : {};
  const bodies: BadBody[] = [
    { label: 'malformed JSON', payload: '{"name": "a", ', expect: 400 },
    {
      label: 'a 2 MB body',
      payload: JSON.stringify({ ...base, padding: 'x'.repeat(2 * 1024 * 1024) }),
      expect: 413,
    },
    { label: 'a __proto__ key', payload: '{"__proto__": {"polluted": true}}', expect: 400 },
    {
      label: 'a constructor.prototype key',
      payload: '{"constructor": {"prototype": {"polluted": true}}}',
      expect: 400,
    },
    {
      label: 'a __proto__ key beside valid fields',
      payload: `${JSON.stringify(base).slice(0, -1)}${Object.keys(base).length > 0 ? ',' : ''}"__proto__":{"role":"admin"}}`,
      expect: 400,
    },
  ];
  if (!route.body) return bodies;
  bodies.push({ label: 'an array instead of an object', payload: '[]', expect: 400 });
  // Claude Code adds fields to its hook input over time: those routes accept unknown fields on purpose.
  if (!CLAUDE_CODE_HOOK_PATHS.has(route.path))
    bodies.push({
      label: 'an unknown field',
      payload: JSON.stringify({ ...base, zzUnknownField: 1 }),
      expect: 400,
      names: 'zzUnknownField',
    });
  for (const [field, schema] of Object.entries(route.body.properties ?? {})) {
    bodies.push({
      label: `a wrong type for ${field}`,
      payload: JSON.stringify({ ...base, [field]: wrongTypeFor(schema as JsonSchema) }),
      expect: 400,
      names: field,
    });
  }
  return bodies;
}

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('bad request bodies on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let objects: MatrixObjects;

  beforeAll(async () => {
    // A clock that stands still: no deadline passes, so no timeout writes behind the test's back.
    test = await createTestApp({
      dialect,
      clock: createFakeClock(),
      config: { loginAttemptsPerMinute: 10_000 },
    });
    objects = await createMatrixObjects(test);
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  it.each(writeRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers malformed, oversized, mistyped and prototype-polluting bodies with a 4xx and writes nothing',
    async (_name, route) => {
      const failures: string[] = [];
      const routeObjects = await objectsForRoute(test, route, objects);
      const url = concretePath(route, pathValues(route, routeObjects));
      for (const bad of badBodies(route, sampleBody(route, routeObjects))) {
        const before = await snapshotState(test.store);
        const response = await test.app.inject({
          method: route.method as 'POST',
          url,
          headers: {
            ...(await headersFor(test, callerFor(route), routeObjects)),
            'content-type': 'application/json',
          },
          payload: bad.payload,
        });
        const status = refusalStatusOf(
          route.path,
          response.statusCode,
          response.headers['x-gatehouse-error'] as string | undefined,
        );
        const summary = `${bad.label}: ${status} ${response.body.slice(0, 160)}`;
        if (status !== bad.expect) failures.push(`expected ${bad.expect}, ${summary}`);
        else if (bad.names && !response.body.includes(bad.names))
          failures.push(`error does not name ${bad.names}: ${summary}`);
        const changed = snapshotDiff(before, await snapshotState(test.store));
        if (changed.length > 0) failures.push(`${bad.label} changed ${changed.join(', ')}`);
        if (({} as Record<string, unknown>).polluted !== undefined)
          failures.push(`Object.prototype polluted by ${bad.label}`);
      }
      expect(failures).toEqual([]);
    },
  );
});
