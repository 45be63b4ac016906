import type { AddressInfo } from 'node:net';
import type { ServerConfig } from 'gatehouse-hitl-server';
import { createTestApp, type TestApp, type TestAppOptions } from 'gatehouse-hitl-server/testing';

/** Parsed JSON from the API; tests read into it freely. */
// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
export type Json = any;

/** A real Gatehouse server on 127.0.0.1 for SDK tests, and a person who answers over HTTP. */
export interface LiveServer {
  test: TestApp<{ now(): number }>;
  url: string;
  port: number;
  /** Calls the API as a person or agent; returns status and JSON body. */
  call(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** Waits until a gate matching `filter` is pending and returns it. */
  pendingGate(filter?: string): Promise<Json>;
  /** Decides a gate as the developer. */
  decide(
    gateId: string,
    decision: Record<string, unknown>,
    token?: string,
  ): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

/** Starts the server on SQLite and listens on an ephemeral port; `app.mcp` mounts MCP endpoints. */
export async function startLiveServer(
  config: Partial<ServerConfig> = {},
  app: Pick<TestAppOptions<{ now(): number }>, 'mcp'> = {},
): Promise<LiveServer> {
  const test = await createTestApp({ dialect: 'sqlite', config, ...app });
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (test.app.server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const call: LiveServer['call'] = async (token, method, path, body) => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...init.headers, 'content-type': 'application/json' };
    }
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
  return {
    test,
    url,
    port,
    call,
    async pendingGate(filter = '') {
      for (let i = 0; i < 400; i++) {
        const { body } = await call(test.tokens.developer, 'GET', `/v1/gates?status=pending${filter}`);
        const gates = body?.items ?? [];
        if (gates.length > 0) return gates[0];
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no pending gate${filter}`);
    },
    decide(gateId, decision, token = test.tokens.developer) {
      return call(token, 'POST', `/v1/gates/${gateId}/decide`, decision);
    },
    close: () => test.close(),
  };
}

/**
 * A run of the test agent at autonomy `review`, started by the tech lead (the agent's own runs may not
 * be that loose): it acts without a plan approved first (Gate 0). Returns the run id.
 */
export async function reviewRun(server: LiveServer, title: string): Promise<string> {
  const { tokens, ids } = server.test;
  const body = { agentId: ids.agentId, autonomy: 'review', title };
  const started = await server.call(tokens.techLead, 'POST', '/v1/runs', body);
  if (started.status !== 201)
    throw new Error(`expected a run, got ${started.status} ${JSON.stringify(started.body)}`);
  return started.body.run.id;
}

/**
 * Gate 0 for a run: sends its plan (event planning_complete) as the test agent and approves the
 * intent gate as the developer, so a run at partial, guided or dependent may implement. Returns the gate id.
 */
export async function approvePlan(server: LiveServer, runId: string): Promise<string> {
  const asked = await server.call(server.test.tokens.agent, 'POST', '/v1/gates', {
    runId,
    event: 'planning_complete',
    operation: 'implement the plan',
  });
  const gateId = asked.body?.gateId;
  if (asked.status !== 200 || typeof gateId !== 'string') {
    throw new Error(`expected an intent gate, got ${asked.status} ${JSON.stringify(asked.body)}`);
  }
  const decided = await server.decide(gateId, { option: 'approve' });
  if (decided.status !== 200) throw new Error(`expected an approval, got ${decided.status}`);
  return gateId;
}
