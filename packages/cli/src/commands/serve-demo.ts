import type { RunningServer } from 'gatehouse-hitl-server';
import type { ActionContext } from '../command.js';
import { type DemoAgent, startDemoAgent } from '../demo/demo-agent.js';

/** The demo agent's name in the inbox and the audit log. */
const DEMO_AGENT_NAME = 'demo-agent';

/**
 * Starts the scripted coding agent against the server just started, with a token issued in-process;
 * its run's repository starts with the demo's sample project on main.
 */
export async function startDemo(context: ActionContext, server: RunningServer): Promise<DemoAgent> {
  const { stdout } = context.io;
  const token = await server.issueAgentToken(DEMO_AGENT_NAME);
  stdout.write(
    server.loginToken === null
      ? `A demo agent is sending requests: sign in at ${server.url} to answer its gates (\`gatehouse admin login-link\` prints a new link)\n`
      : 'A demo agent is sending requests: open the link to answer its gates\n',
  );
  const log = (text: string) => {
    for (const line of text.split('\n')) if (line.trim() !== '') stdout.write(`demo-agent | ${line}\n`);
  };
  return startDemoAgent({
    url: server.url,
    token,
    log,
    seed: (runId, files) => server.seedWorkspace(runId, files),
  });
}
