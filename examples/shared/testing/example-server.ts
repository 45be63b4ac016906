import { fileURLToPath } from 'node:url';
import {
  type DecideBody,
  type GateDocument,
  type GateViewResponse,
  gateRoutes,
} from 'gatehouse-hitl-protocol';
import { startTestGatehouse, type TestGatehouse, type TestPerson } from 'gatehouse-hitl-testing';
import { afterEach, beforeEach } from 'vitest';
import { type ExampleRun, runExample } from './example-process.js';

/** The test's Gatehouse (the testing kit) and the person who answers the example's gates. */
export interface ExampleServer {
  readonly env: TestGatehouse;
  readonly url: string;
  /** A developer; `decide` answers as this person. */
  readonly reviewer: TestPerson;
  /** Waits until a gate is pending and returns it. */
  pendingGate(): Promise<GateDocument>;
  /** Decides a gate as the reviewer. */
  decide(gateId: string, body: DecideBody): Promise<void>;
  /** A gate as a reviewer sees it (with `consumedAt`). */
  gate(gateId: string): Promise<GateViewResponse>;
  /** Every gate of a run. */
  gatesOfRun(runId: string): Promise<GateDocument[]>;
}

/** A Gatehouse per test and the example script wired to it with the agent's token. */
export interface ExampleHarness {
  /** The server of the running test. */
  readonly server: ExampleServer;
  /** Runs the example against the server with the agent token and any extra arguments. */
  start(...extra: string[]): Promise<ExampleRun>;
  /** Runs the example with the server's URL but no token. */
  startWithoutToken(): Promise<ExampleRun>;
}

async function startExampleServer(): Promise<{ server: ExampleServer; agentToken: string }> {
  const env = await startTestGatehouse();
  // The examples' runs ask for full autonomy, which only people may grant: an admin registers the agent so.
  const agent = await env.agent('example', { autonomy: 'full' });
  const reviewer = await env.person('dev', 'developer');
  const asReviewer = async () => reviewer.token();
  const server: ExampleServer = {
    env,
    url: env.url,
    reviewer,
    pendingGate: () => env.pendingGate(),
    decide: (gateId, body) => env.decide(gateId, body, reviewer),
    gate: async (gateId) => env.api(await asReviewer(), gateRoutes.get, { params: { id: gateId } }),
    gatesOfRun: async (runId) =>
      (await env.api(await asReviewer(), gateRoutes.list, { query: { runId, limit: 100 } })).items,
  };
  return { server, agentToken: agent.token };
}

/** Registers the per-test server for an example's test file. */
export function useExampleServer(scriptUrl: URL): ExampleHarness {
  const script = fileURLToPath(scriptUrl);
  let current: { server: ExampleServer; agentToken: string } | null = null;
  beforeEach(async () => {
    current = await startExampleServer();
  });
  afterEach(async () => {
    await current?.server.env.close();
    current = null;
  });
  const running = () => {
    if (current === null) throw new Error('the example server runs only inside a test');
    return current;
  };
  return {
    get server() {
      return running().server;
    },
    start: (...extra) =>
      runExample(script, ['--url', running().server.url, '--token', running().agentToken, ...extra]),
    startWithoutToken: () => runExample(script, ['--url', running().server.url]),
  };
}
