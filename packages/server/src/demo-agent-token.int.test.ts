import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { startServer } from './main.js';

describe('issueAgentToken, for an agent run in the server process', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function agentCall(url: string, token: string): Promise<number> {
    const response = await fetch(`${url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    return response.status;
  }

  it('creates the agent once, and each new token revokes the one before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-demo-token-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent' });
    const server = await startServer({ config, print: () => {}, handleSignals: false });
    cleanup.push(() => server.close());

    const first = await server.issueAgentToken('demo-agent');
    expect(await agentCall(server.url, first)).toBe(201);
    const second = await server.issueAgentToken('demo-agent');
    expect(second).not.toBe(first);
    expect(await agentCall(server.url, second)).toBe(201);
    expect(await agentCall(server.url, first)).toBe(401);

    const session = await fetch(`${server.url}/v1/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: server.loginToken }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const agents = await fetch(`${server.url}/v1/agents`, {
      headers: { authorization: `Bearer ${session.token}` },
    }).then((r) => r.json() as Promise<{ agents: { name: string }[] }>);
    expect(agents.agents.filter((agent) => agent.name === 'demo-agent')).toHaveLength(1);
  });
});
