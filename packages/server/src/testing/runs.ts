import type { LightMyRequestResponse } from 'fastify';
import type { Agent, AutonomyLevel, Clock } from 'gatehouse-hitl-core';
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
