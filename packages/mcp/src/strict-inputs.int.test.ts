import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatehouseMcpServer, type GatehouseMcpOptions } from './server.js';
import { callTool, createRun, type LiveServer, startLiveServer, textOf } from './testing/harness.js';
import { PERMISSION_PROMPT_TOOL } from './tools-permission-prompt.js';

const UNKNOWN = 'bogus_argument';

async function clientFor(options: GatehouseMcpOptions): Promise<Client> {
  const server = createGatehouseMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'strict-inputs-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** Every tool but the permission prompt, whose input is Claude Code's and may grow fields. */
async function toolsOf(client: Client) {
  const { tools } = await client.listTools();
  return tools.filter((tool) => tool.name !== PERMISSION_PROMPT_TOOL);
}

async function expectRefused(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await callTool(client, name, { ...args, [UNKNOWN]: 'x' });
  expect(result.isError, name).toBe(true);
  const text = textOf(result);
  expect(text, name).toContain('MCP error -32602');
  expect(text, name).toContain(`Unrecognized key: "${UNKNOWN}"`);
}

describe('unknown tool arguments are refused, naming the argument', () => {
  let server: LiveServer;
  let agent: Client;
  let review: Client;

  beforeAll(async () => {
    server = await startLiveServer();
    const runId = await createRun(server);
    agent = await clientFor({ url: server.url, token: server.test.tokens.agent, runId });
    review = await clientFor({ url: server.url, token: server.test.tokens.developer, runId, review: true });
  });

  afterAll(async () => {
    await agent?.close();
    await review?.close();
    await server?.close();
  });

  it('lists every input schema as closed (additionalProperties: false)', async () => {
    for (const client of [agent, review]) {
      const tools = await toolsOf(client);
      expect(tools.length).toBeGreaterThan(5);
      for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
  });

  it('refuses an unknown argument on every agent tool, and nothing is done', async () => {
    const tools = await toolsOf(agent);
    expect(tools.map((tool) => tool.name)).toContain('gatehouse_request_approval');
    for (const tool of tools) await expectRefused(agent, tool.name, {});
    const gates = await server.call(server.test.tokens.developer, 'GET', '/v1/gates?status=pending');
    expect(gates.body.items ?? []).toHaveLength(0);
  });

  it('refuses an unknown argument on every review tool', async () => {
    const tools = await toolsOf(review);
    expect(tools.map((tool) => tool.name)).toContain('get_chat_history');
    for (const tool of tools) await expectRefused(review, tool.name, {});
  });

  it('refuses a misspelt argument next to valid ones instead of ignoring it', async () => {
    const result = await callTool(agent, 'gatehouse_request_approval', {
      tool: 'shell',
      args: { command: 'ls' },
      waitSecond: 1,
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Unrecognized key: "waitSecond"');
    const fine = await callTool(agent, 'gatehouse_get_interventions', {});
    expect(fine.isError).toBeFalsy();
  });
});
