import type { HttpResult, Json } from './http-client.js';
import { type FakeClockApp, startFakeClockApp } from './listening-app.js';
import type { TestDialect } from './test-app.js';

/** A listening server with a fake clock and the calls an agent and its reviewers make, over real HTTP. */
export interface AgentSession {
  server: FakeClockApp;
  /** `POST /v1/runs` as the agent (or `token`); the body as answered. */
  startRun(body?: Record<string, unknown>, token?: string): Promise<HttpResult>;
  /** `POST /v1/gates` as the agent. */
  ask(body: Record<string, unknown>): Promise<HttpResult>;
  /** `POST /v1/gates/:id/decide` as `token` (the developer's by default). */
  decide(gateId: string, body: Record<string, unknown>, token?: string): Promise<HttpResult>;
  /** `POST /v1/runs/:id/checkpoint` as the agent. */
  checkpoint(runId: string, phase: number, type?: 'strategic' | 'tactical'): Promise<HttpResult>;
  /** `POST /v1/runs/:id/<action>` as the agent, e.g. complete. */
  runAction(runId: string, action: string, body?: Record<string, unknown>): Promise<HttpResult>;
  /** `POST /v1/confidence` as the agent. */
  report(body: Record<string, unknown>): Promise<HttpResult>;
  /** `POST /v1/runs/:id/interventions` as the developer. */
  intervene(runId: string, kind: string): Promise<HttpResult>;
  gate(gateId: string): Promise<Json>;
  close(): Promise<void>;
}

/** Starts a server on `dialect` with `policy` (YAML) active, or the default policy when none is given. */
export async function startAgentSession(dialect: TestDialect, policy?: string): Promise<AgentSession> {
  const server = await startFakeClockApp(dialect);
  const { tokens, ids, services } = server.test;
  if (policy !== undefined) await services.policies.replace(ids.adminId, { source: policy, format: 'yaml' });
  const post = (path: string, body: unknown, token: string) =>
    server.client.call('POST', path, { token, body });
  return {
    server,
    startRun: (body = {}, token = tokens.agent) => post('/v1/runs', body, token),
    ask: (body) => post('/v1/gates', body, tokens.agent),
    decide: (gateId, body, token = tokens.developer) => post(`/v1/gates/${gateId}/decide`, body, token),
    checkpoint: (runId, phase, type = phase % 2 === 1 ? 'strategic' : 'tactical') =>
      post(`/v1/runs/${runId}/checkpoint`, { phase, type }, tokens.agent),
    runAction: (runId, action, body = {}) => post(`/v1/runs/${runId}/${action}`, body, tokens.agent),
    report: (body) => post('/v1/confidence', body, tokens.agent),
    intervene: (runId, kind) => post(`/v1/runs/${runId}/interventions`, { kind }, tokens.developer),
    gate: async (gateId) =>
      (await server.client.call('GET', `/v1/gates/${gateId}`, { token: tokens.admin })).body.gate,
    close: () => server.close(),
  };
}
