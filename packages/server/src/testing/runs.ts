import type { LightMyRequestResponse } from 'fastify';
import type { Agent, AutonomyLevel, Clock } from 'gatehouse-hitl-core';
import type { HttpClient } from './http-client.js';
import { bearer, type TestApp } from './test-app.js';

/** A run as the API returns it. */
export interface TestRun {
  id: string;
  agentId: string;
  status: string;
  autonomy: AutonomyLevel;
  approvalMode: string;
  confidenceThreshold: number;
  phaseNumber: number;
  phaseType: string;
  instructions: string[];
  title: string | null;
}

/** `POST /v1/runs` with `token` (the test agent's by default). */
export function postRun<C extends Clock>(
  test: TestApp<C>,
  body: Record<string, unknown> = {},
  token = test.tokens.agent,
): Promise<LightMyRequestResponse> {
  return test.app.inject({ method: 'POST', url: '/v1/runs', headers: bearer(token), payload: body });
}

/** Creates a run through the API and returns it; fails the test when the server refused. */
export async function createRunViaApi<C extends Clock>(
  test: TestApp<C>,
  body: Record<string, unknown> = {},
  token = test.tokens.agent,
): Promise<TestRun> {
  const response = await postRun(test, body, token);
  if (response.statusCode !== 201)
    throw new Error(`expected a run, got ${response.statusCode} ${response.body}`);
  return (response.json() as { run: TestRun }).run;
}

/**
 * Gate 0 for a run: sends its plan (event planning_complete) as its agent and approves the intent
 * gate as the developer, so a run at partial, guided or dependent may implement. Returns the gate id.
 */
export async function approveTestPlan<C extends Clock>(
  test: TestApp<C>,
  runId: string,
  token = test.tokens.agent,
): Promise<string> {
  const asked = await test.app.inject({
    method: 'POST',
    url: '/v1/gates',
    headers: bearer(token),
    payload: { runId, event: 'planning_complete', operation: 'implement the plan' },
  });
  const { gateId } = asked.json() as { gateId?: string };
  if (asked.statusCode !== 200 || gateId === undefined) {
    throw new Error(`expected an intent gate, got ${asked.statusCode} ${asked.body}`);
  }
  const decided = await test.app.inject({
    method: 'POST',
    url: `/v1/gates/${gateId}/decide`,
    headers: bearer(test.tokens.developer),
    payload: { option: 'approve' },
  });
  if (decided.statusCode !== 200)
    throw new Error(`expected an approval, got ${decided.statusCode} ${decided.body}`);
  return gateId;
}

/** The same over HTTP, for a server in another process: the agent sends the plan, `person` approves it. */
export async function approvePlanOverHttp(
  client: HttpClient,
  runId: string,
  tokens: { agent: string; person: string },
): Promise<string> {
  const body = { runId, event: 'planning_complete', operation: 'implement the plan' };
  const asked = await client.call('POST', '/v1/gates', { token: tokens.agent, body });
  const gateId = asked.body?.gateId;
  if (asked.status !== 200 || typeof gateId !== 'string') {
    throw new Error(`expected an intent gate, got ${asked.status} ${JSON.stringify(asked.body)}`);
  }
  const approve = { token: tokens.person, body: { option: 'approve' } };
  const decided = await client.call('POST', `/v1/gates/${gateId}/decide`, approve);
  if (decided.status !== 200) throw new Error(`expected an approval, got ${JSON.stringify(decided.body)}`);
  return gateId;
}

/** Inserts an agent with the given profile and autonomy straight into the store. */
export async function insertTestAgent<C extends Clock>(
  test: TestApp<C>,
  agent: Pick<Agent, 'id'> & Partial<Agent>,
): Promise<void> {
  await test.store.transaction((tx) =>
    tx.insertAgent({
      name: agent.id.replace(/^agent_/, ''),
      profile: null,
      autonomy: null,
      createdAt: test.clock.now(),
      ...agent,
    }),
  );
}

/** `POST /v1/runs/:id/interventions` with a person's token. */
export function postIntervention<C extends Clock>(
  test: TestApp<C>,
  runId: string,
  body: Record<string, unknown>,
  token = test.tokens.developer,
): Promise<LightMyRequestResponse> {
  return test.app.inject({
    method: 'POST',
    url: `/v1/runs/${runId}/interventions`,
    headers: bearer(token),
    payload: body,
  });
}
