import { generateKeyPairSync } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { DEFAULT_POLICY_YAML, type Role } from 'gatehouse-hitl-core';
import type { MatrixPrincipal } from './api-rules.js';
import { type ApiRoute, type FieldSamples, sampleFor } from './openapi-routes.js';
import { bearer, issueRevokedAgentToken, issueTestSession, type TestApp } from './test-app.js';

/** Objects every route of the matrix can point at: one of each, owned by the test agent. */
export interface MatrixObjects {
  runId: string;
  gateId: string;
  ruleId: string;
  targetUserId: string;
  targetAgentId: string;
  revokedAgentToken: string;
  webhookId: string;
  deliveryId: string;
}

const rawKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);

/** Values for fields whose pattern a generic sample cannot guess. */
export function fieldSamples(objects: MatrixObjects): FieldSamples {
  return {
    name: 'sample-name',
    password: 'a sample password 123',
    token: `ghl_${'x'.repeat(43)}`,
    publicKey: rawKey.toString('base64'),
    option: 'approve',
    tool: 'read_file',
    source: DEFAULT_POLICY_YAML,
    gateIds: [objects.gateId],
    runId: objects.runId,
    agentId: 'agent_alpha',
    assignees: ['user_dev'],
    payloadHash: 'a'.repeat(64),
    instruction: 'sample instruction',
    reason: 'sample reason',
    url: 'http://127.0.0.1:9/matrix',
  };
}

/** Whole bodies for routes whose rules a schema-driven sample cannot meet (e.g. "give role or disabled"). */
function claudeCodeRead(event: string) {
  return {
    session_id: 'matrix-session',
    hook_event_name: event,
    tool_name: 'Read',
    tool_input: { file_path: '/tmp/matrix.txt' },
  };
}

export const ROUTE_BODIES: Record<string, unknown> = {
  'PATCH /v1/users/{id}': { role: 'developer' },
  'PATCH /v1/agents/{id}': { autonomy: 'guided' },
  'POST /v1/me/keys': {
    publicKey: 'O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik=',
    challenge: `ghk_${'a'.repeat(43)}`,
    proof: `${'A'.repeat(86)}==`,
  },
  'POST /v1/confidence': { score: 50, reasons: ['sample reason'] },
  'POST /v1/analyze': {
    files: [{ path: 'src/a.ts', before: 'export const a = 1;\n', after: 'export const a = 2;\n' }],
  },
  'PATCH /v1/webhooks/{id}': { description: 'sample description' },
  'PUT /v1/users/{id}/slack': { slackUserId: 'U0MATRIX' },
  // A Read the default policy allows: a gated call would hold the request for the hook's wait.
  'POST /v1/hooks/claude-code/pre-tool-use': claudeCodeRead('PreToolUse'),
  'POST /v1/hooks/claude-code/permission-request': claudeCodeRead('PermissionRequest'),
};

/** A body the route accepts: the table above, or one made from its schema. */
export function sampleBody(route: ApiRoute, objects: MatrixObjects): unknown {
  const key = `${route.method} ${route.path}`;
  if (key in ROUTE_BODIES) return ROUTE_BODIES[key];
  return route.body ? sampleFor(route.body, fieldSamples(objects)) : undefined;
}

const ROLE_USER: Record<Role, string> = {
  viewer: 'user_viewer',
  developer: 'user_dev',
  tech_lead: 'user_lead',
  admin: 'user_admin',
};

/** Headers for one principal; people get a fresh session each time so a logout cannot leak into the next row. */
export async function headersFor(
  test: TestApp<{ now(): number }>,
  principal: MatrixPrincipal,
  objects: MatrixObjects,
): Promise<Record<string, string>> {
  switch (principal) {
    case 'anonymous':
      return {};
    case 'agent':
      return bearer(test.tokens.agent);
    case 'revokedAgent':
      return bearer(objects.revokedAgentToken);
    default:
      return bearer(await issueTestSession(test.store, ROLE_USER[principal], test.clock.now()));
  }
}

/** The id each path parameter stands for, by the resource segment before it. */
export function pathValues(route: ApiRoute, objects: MatrixObjects): Record<string, string> {
  const values: Record<string, string> = {};
  const segments = route.path.split('/');
  segments.forEach((segment, index) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!name) return;
    const resource = segments[index - 1] ?? '';
    const byResource: Record<string, string> = {
      agents: objects.targetAgentId,
      users: objects.targetUserId,
      runs: objects.runId,
      gates: objects.gateId,
      rules: objects.ruleId,
      versions: '1',
      webhooks: objects.webhookId,
      deliveries: objects.deliveryId,
      // Well-formed ids of no review or comment: a bad body is judged, then the review is not found.
      reviews: 'rev_missing',
      comments: 'cmt_missing',
      journal: 'jrn_missing',
      whitelists: 'wl_missing',
      proposals: 'tp_missing',
      'notification-rules': 'nrl_missing',
    };
    values[name] = byResource[resource] ?? 'missing';
  });
  return values;
}

type Json = { [key: string]: Json | undefined } & { id?: unknown };

async function tryCreate(
  test: TestApp<{ now(): number }>,
  options: InjectOptions,
  pick: (body: Json) => unknown,
): Promise<string | null> {
  const response = await test.app.inject(options);
  if (response.statusCode >= 300) return null;
  const id = pick(response.json() as Json);
  return typeof id === 'string' ? id : null;
}

let freshCount = 0;

/** A pending gate of the test agent: a destructive shell call, or (`plain`) a tool the default policy gates but allows "always" for. */
async function openGate(
  test: TestApp<{ now(): number }>,
  runId: string,
  plain = false,
): Promise<string | null> {
  freshCount += 1;
  const action = plain
    ? { tool: 'publish_package', args: { n: freshCount } }
    : { tool: 'shell', args: { command: `rm -rf build-${freshCount}` } };
  return tryCreate(
    test,
    {
      method: 'POST',
      url: '/v1/gates',
      headers: { ...bearer(test.tokens.agent), 'idempotency-key': `matrix-gate-${freshCount}` },
      payload: {
        ...(runId === 'run_missing' ? {} : { runId }),
        ...action,
      },
    },
    (body) => body.gate?.id,
  );
}

async function rememberRule(test: TestApp<{ now(): number }>, gateId: string): Promise<string | null> {
  return tryCreate(
    test,
    {
      method: 'POST',
      url: `/v1/gates/${gateId}/decide`,
      headers: bearer(test.tokens.admin),
      payload: { option: 'approve_always', remember: { scope: 'agent' } },
    },
    (body) => body.rule?.id,
  );
}

/** A webhook nothing listens for (its deliveries are refused at once), straight into the store. */
async function insertWebhook(test: TestApp<{ now(): number }>): Promise<string> {
  freshCount += 1;
  const id = `wh_matrix${freshCount}`;
  const now = test.clock.now();
  await test.store.transaction((tx) =>
    tx.insertWebhook({
      id,
      url: 'http://127.0.0.1:9/matrix',
      events: ['run.paused'],
      description: null,
      enabled: true,
      secret: 'whsec_matrix',
      createdBy: 'user:user_admin',
      createdAt: now,
      updatedAt: now,
    }),
  );
  return id;
}

/** A delivery that already ended, so the worker leaves it alone. */
async function insertDeadDelivery(test: TestApp<{ now(): number }>, webhookId: string): Promise<string> {
  const now = test.clock.now();
  const id = 'whd_matrix';
  await test.store.transaction((tx) =>
    tx.insertWebhookDelivery({
      id,
      webhookId,
      eventId: 'evt_matrix',
      eventType: 'run.paused',
      payload: '{"id":"evt_matrix","type":"run.paused"}',
      status: 'dead',
      attempts: 8,
      nextAttemptAt: null,
      claimedUntil: null,
      lastAttemptAt: now,
      lastStatusCode: null,
      lastError: 'HTTP 500',
      redeliveryOf: null,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return id;
}

/**
 * The objects for one route: gate routes get a pending gate of their own and rule routes a
 * rule of their own, so what earlier routes did (decide, revoke) cannot hide a wrong answer.
 */
export async function objectsForRoute(
  test: TestApp<{ now(): number }>,
  route: ApiRoute,
  objects: MatrixObjects,
): Promise<MatrixObjects> {
  if (route.path.startsWith('/v1/gates/{id}')) {
    // A gate request in a paused run waits for the run: once a runs route has paused it, open the gate outside it.
    const run = await test.store.read((tx) => tx.getRun(objects.runId));
    const runId = run?.status === 'running' ? objects.runId : 'run_missing';
    return { ...objects, gateId: (await openGate(test, runId)) ?? objects.gateId };
  }
  if (route.path.startsWith('/v1/webhooks/{id}')) {
    return { ...objects, webhookId: await insertWebhook(test) };
  }
  if (route.path.startsWith('/v1/rules/{id}')) {
    const gateId = await openGate(test, objects.runId, true);
    const ruleId = gateId === null ? null : await rememberRule(test, gateId);
    return { ...objects, ruleId: ruleId ?? objects.ruleId };
  }
  return objects;
}

/** Creates a run and a pending gate through the API when those routes exist, plus a person and an agent to act on. */
export async function createMatrixObjects(test: TestApp<{ now(): number }>): Promise<MatrixObjects> {
  const now = test.clock.now();
  await test.store.transaction(async (tx) => {
    await tx.insertUser({
      id: 'user_target',
      name: 'target',
      role: 'viewer',
      passwordHash: null,
      disabled: false,
      createdAt: now,
    });
    await tx.insertAgent({
      id: 'agent_target',
      name: 'target',
      profile: null,
      autonomy: null,
      createdAt: now,
    });
  });
  const headers = bearer(test.tokens.agent);
  const runId =
    (await tryCreate(
      test,
      { method: 'POST', url: '/v1/runs', headers, payload: {} },
      (body) => body.run?.id ?? body.id,
    )) ?? 'run_missing';
  const gateId = (await openGate(test, runId)) ?? 'gate_missing';
  const webhookId = await insertWebhook(test);
  return {
    runId,
    gateId,
    ruleId: 'rule_missing',
    targetUserId: 'user_target',
    targetAgentId: 'agent_target',
    revokedAgentToken: await issueRevokedAgentToken(test.store, 'agent_alpha', now),
    webhookId,
    deliveryId: await insertDeadDelivery(test, webhookId),
  };
}
