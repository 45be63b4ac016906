import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_NOT_FOUND } from './resource-errors.js';
import { createGatehouseMcpServer } from './server.js';
import { createRun, type LiveServer, startLiveServer } from './testing/harness.js';

async function clientFor(server: LiveServer, token: string): Promise<Client> {
  const mcp = createGatehouseMcpServer({ url: server.url, token });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'resources-test', version: '1.0.0' });
  await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** Reads `uri` and returns the error it answers with; fails when it answers a resource. */
async function refusalOf(client: Client, uri: string): Promise<McpError> {
  const error = await client.readResource({ uri }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, uri).toBeInstanceOf(McpError);
  return error as McpError;
}

function expectNotFound(error: McpError, uri: string): void {
  expect({ code: error.code, message: error.message, data: error.data }).toEqual({
    code: RESOURCE_NOT_FOUND,
    message: `MCP error ${RESOURCE_NOT_FOUND}: Resource not found`,
    data: { uri },
  });
}

describe('resource errors answer one code and message shape', () => {
  let server: LiveServer;
  let agent: Client;
  let otherAgent: Client;
  let runId: string;

  beforeAll(async () => {
    server = await startLiveServer();
    runId = await createRun(server);
    agent = await clientFor(server, server.test.tokens.agent);
    otherAgent = await clientFor(server, server.test.tokens.otherAgent);
  });

  afterAll(async () => {
    await agent?.close();
    await otherAgent?.close();
    await server?.close();
  });

  it.each(['briefing', 'gates/pending'])('reads the %s of a run the token may see', async (kind) => {
    const uri = `gatehouse://runs/${runId}/${kind}`;
    const result = await agent.readResource({ uri });
    expect(result.contents[0]?.uri).toBe(uri);
  });

  it.each(['briefing', 'gates/pending'])('a malformed run id in the %s URI is not found', async (kind) => {
    const uri = `gatehouse://runs/not-a-run/${kind}`;
    expectNotFound(await refusalOf(agent, uri), uri);
  });

  it.each(['briefing', 'gates/pending'])('a run that does not exist, for %s, is not found', async (kind) => {
    const uri = `gatehouse://runs/run_doesnotexist0000/${kind}`;
    expectNotFound(await refusalOf(agent, uri), uri);
  });

  it.each(['briefing', 'gates/pending'])(
    'another agent’s run, for %s, answers exactly like one that does not exist',
    async (kind) => {
      const uri = `gatehouse://runs/${runId}/${kind}`;
      expectNotFound(await refusalOf(otherAgent, uri), uri);
    },
  );

  it.each([
    'gatehouse://runs',
    'gatehouse://nothing/here',
    `gatehouse://runs/run_abc/unknown`,
    'file:///etc/passwd',
    'not a uri',
  ])('an unknown resource URI (%s) is not found', async (uri) => {
    expectNotFound(await refusalOf(agent, uri), uri);
  });
});
