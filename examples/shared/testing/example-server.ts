import { fileURLToPath } from 'node:url';
import { type LiveServer, startLiveServer } from 'gatehouse-hitl-sdk/testing';
import { afterEach, beforeEach } from 'vitest';
import { type ExampleRun, runExample } from './example-process.js';

/** A live server per test and the example script wired to it with the agent's token. */
export interface ExampleHarness {
  /** The server of the running test. */
  readonly server: LiveServer;
  /** Runs the example against the server with the agent token and any extra arguments. */
  start(...extra: string[]): Promise<ExampleRun>;
  /** Runs the example with the server's URL but no token. */
  startWithoutToken(): Promise<ExampleRun>;
}

/**
 * The examples' agent, registered by an admin at autonomy `full` (its runs ask for full autonomy,
 * which only people may grant), with its token.
 */
async function registerFullAutonomyAgent(server: LiveServer): Promise<string> {
  const { test } = server;
  await test.store.transaction((tx) =>
    tx.insertAgent({
      id: 'agent_example',
      name: 'example',
      profile: null,
      autonomy: 'full',
      createdAt: test.clock.now(),
    }),
  );
  return (await test.services.agents.issueToken(test.ids.adminId, 'agent_example')).token;
}

/** Registers the per-test server for an example's test file. */
export function useExampleServer(scriptUrl: URL): ExampleHarness {
  const script = fileURLToPath(scriptUrl);
  let current: LiveServer | null = null;
  let token = '';
  beforeEach(async () => {
    current = await startLiveServer();
    token = await registerFullAutonomyAgent(current);
  });
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  const server = (): LiveServer => {
    if (current === null) throw new Error('the example server runs only inside a test');
    return current;
  };
  return {
    get server() {
      return server();
    },
    start: (...extra) => runExample(script, ['--url', server().url, '--token', token, ...extra]),
    startWithoutToken: () => runExample(script, ['--url', server().url]),
  };
}
