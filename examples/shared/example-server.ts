import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import { type LiveServer, startLiveServer } from '../../packages/sdk/src/testing/live-server.js';
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

/** Registers the per-test server for an example's test file. */
export function useExampleServer(scriptUrl: URL): ExampleHarness {
  const script = fileURLToPath(scriptUrl);
  let current: LiveServer | null = null;
  beforeEach(async () => {
    current = await startLiveServer();
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
    start: (...extra) =>
      runExample(script, ['--url', server().url, '--token', server().test.tokens.agent, ...extra]),
    startWithoutToken: () => runExample(script, ['--url', server().url]),
  };
}
