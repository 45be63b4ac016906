import { Gatehouse } from 'gatehouse-hitl-sdk';
import { type CodingAgentOptions, type Log, runCodingAgent } from './agent.js';
import { createWorkspace } from './workspace.js';

/** Where the demo agent runs and what it prints. */
export interface DemoAgentOptions {
  /** The Gatehouse server, e.g. `http://127.0.0.1:7300`. */
  url: string;
  /** An agent token (`gha_…`). */
  token: string;
  /** One line of what the agent does. */
  log: Log;
  /** Puts the sample project on the run's main before the agent clones it (see `CodingAgentOptions.seed`). */
  seed?: CodingAgentOptions['seed'];
}

/** The scripted coding agent, running in this process. */
export interface DemoAgent {
  /** Settles once the agent finished its job, was stopped or failed; never rejects. */
  readonly done: Promise<void>;
  /** Stops the agent wherever it waits, removes its workspace and waits for it to end. */
  stop(): Promise<void>;
}

/**
 * Starts the scripted coding agent against a server: it creates a run, works in a clone of its
 * repository and asks before each step, going on as people answer its gates and reviews.
 *
 * @example
 * const agent = startDemoAgent({ url: server.url, token, log: console.log });
 * await agent.stop();
 */
export function startDemoAgent(options: DemoAgentOptions): DemoAgent {
  const { log } = options;
  const stopping = new AbortController();
  const run = async () => {
    const gate = new Gatehouse({ url: options.url, token: options.token });
    const workspace = await createWorkspace();
    try {
      await runCodingAgent({ gate, workspace, log, signal: stopping.signal, seed: options.seed });
      log('the demo agent finished its job; start the server again with --demo for another run');
    } finally {
      await workspace.close();
    }
  };
  const done = run().catch((error: unknown) => {
    if (!stopping.signal.aborted) log(`the demo agent stopped: ${(error as Error).message ?? String(error)}`);
  });
  return {
    done,
    async stop() {
      stopping.abort(new Error('the server is shutting down'));
      await done;
    },
  };
}
