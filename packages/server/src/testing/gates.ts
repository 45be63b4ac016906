import type { LightMyRequestResponse } from 'fastify';
import type { ApprovalMode, Clock, Run, RunStatus } from 'gatehouse-hitl-core';
import { bearer, type TestApp } from './test-app.js';

/**
 * A small policy for gate tests: reads allowed, `drop_database` denied, `deploy` needs two
 * approvals, `wire_money` a signed decision, and `t_deny` / `t_escalate` / `t_proceed` time out
 * after 60 s with that action. Everything else is gated.
 */
export const TEST_POLICY_YAML = `name: gate-tests
defaultAction: gate
rules:
  - id: reads
    priority: 200
    match: { tools: [read_file] }
    action: allow
    reason: Reads are fine.
  - id: allowed-writes
    priority: 200
    match: { tools: [write_file] }
    action: allow
    reason: Writes are allowed by the policy.
  - id: no-drop
    priority: 900
    match: { tools: [drop_database] }
    action: deny
    reason: Never drop databases.
  - id: two-approvals
    priority: 500
    match: { tools: [deploy] }
    action: { gate: { requiredApprovals: 2 } }
    reason: Deploys need two people.
  - id: signed
    priority: 500
    match: { tools: [wire_money] }
    action: { gate: { signature: true } }
    reason: Money moves need a signed decision.
  - id: timeout-deny
    priority: 500
    match: { tools: [t_deny] }
    action: { gate: { timeoutSeconds: 60, timeoutAction: deny } }
    reason: Denied when nobody answers.
  - id: timeout-escalate
    priority: 500
    match: { tools: [t_escalate] }
    action: { gate: { timeoutSeconds: 60, timeoutAction: escalate, escalationChain: [tech_lead, admin] } }
    reason: Escalates when nobody answers.
  - id: timeout-proceed
    priority: 500
    match: { tools: [t_proceed] }
    action: { gate: { timeoutSeconds: 60, timeoutAction: proceed, risk: low } }
    reason: Goes ahead when nobody answers.
`;

/** Stores TEST_POLICY_YAML as the active policy, as the test admin. */
export async function useTestPolicy<C extends Clock>(
  test: TestApp<C>,
  source = TEST_POLICY_YAML,
): Promise<void> {
  await test.services.policies.replace(test.ids.adminId, { source, format: 'yaml' });
}

/** Inserts a run of the test agent straight into the store. */
export async function insertTestRun<C extends Clock>(
  test: TestApp<C>,
  options: {
    status?: RunStatus;
    approvalMode?: ApprovalMode;
    confidenceThreshold?: number;
    agentId?: string;
  } = {},
): Promise<Run> {
  const now = test.clock.now();
  const run: Run = {
    id: `run_${Math.random().toString(36).slice(2, 12)}`,
    agentId: options.agentId ?? test.ids.agentId,
    status: options.status ?? 'running',
    autonomy: 'partial',
    approvalMode: options.approvalMode ?? 'auto',
    confidenceThreshold: options.confidenceThreshold ?? 0.8,
    phaseNumber: 1,
    phaseType: 'strategic',
    instructions: [],
    createdAt: now,
    updatedAt: now,
  };
  await test.store.transaction((tx) => tx.insertRun(run));
  return run;
}

/** `POST /v1/gates` as the test agent (or `token`), with an optional idempotency key. */
export function postGate<C extends Clock>(
  test: TestApp<C>,
  body: Record<string, unknown>,
  options: { token?: string; key?: string } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = bearer(options.token ?? test.tokens.agent);
  if (options.key !== undefined) headers['idempotency-key'] = options.key;
  return test.app.inject({ method: 'POST', url: '/v1/gates', headers, payload: body });
}

/** Opens a gate through the API and returns its id; fails the test when the request was not gated. */
export async function openTestGate<C extends Clock>(
  test: TestApp<C>,
  body: Record<string, unknown>,
  options: { token?: string; key?: string } = {},
): Promise<string> {
  const response = await postGate(test, body, options);
  const json = response.json() as { outcome?: string; gate?: { id: string } };
  if (response.statusCode !== 200 || json.outcome !== 'gated' || json.gate === undefined) {
    throw new Error(`expected a gate, got ${response.statusCode} ${response.body}`);
  }
  return json.gate.id;
}

/** `POST /v1/gates/:id/decide` with a person's token. */
export function decideTestGate<C extends Clock>(
  test: TestApp<C>,
  token: string,
  gateId: string,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return test.app.inject({
    method: 'POST',
    url: `/v1/gates/${gateId}/decide`,
    headers: bearer(token),
    payload: body,
  });
}
