import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatehouseMcpServer } from './server.js';
import { REVIEW_TOOLS } from './tools-review.js';

const RUN = 'run_reviewed';
let sent: string[] = [];
const clients: Client[] = [];

/** A fetch that records what would have been sent and answers nothing: these tests stop before the network. */
const recordingFetch: typeof fetch = async (input) => {
  sent.push(String(input));
  return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'no server here' } }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });
};

async function reviewSession(): Promise<Client> {
  const server = createGatehouseMcpServer({
    url: 'http://127.0.0.1:9',
    token: 'ghs_person',
    runId: RUN,
    review: true,
    fetch: recordingFetch,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'review-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const first = (result.content as { type: string; text?: string }[])[0];
  return first?.text ?? '';
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  sent = [];
});

describe('the review session MCP server', () => {
  it('offers exactly the review tools, each with input and output schemas, and no agent tools', async () => {
    const client = await reviewSession();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...REVIEW_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    expect(client.getInstructions()).toContain('one run only');
  });

  it('marks only write_file, edit_file and add_review_comment as writing', async () => {
    const client = await reviewSession();
    const { tools } = await client.listTools();
    const writing = tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name);
    expect(writing.sort()).toEqual(['add_review_comment', 'edit_file', 'write_file']);
  });

  it.each(REVIEW_TOOLS.map((name) => [name]))(
    '%s refuses another run before sending anything',
    async (name) => {
      const client = await reviewSession();
      const args: Record<string, unknown> = {
        runId: 'run_other',
        path: 'a.md',
        text: 'x',
        oldText: 'a',
        newText: 'b',
        body: 'hi',
        query: 'plan',
        commit: 'a'.repeat(40),
      };
      const { tools } = await client.listTools();
      const shape = tools.find((tool) => tool.name === name)?.inputSchema.properties ?? {};
      const accepted = Object.fromEntries(Object.entries(args).filter(([key]) => key in shape));
      const result = await client.callTool({ name, arguments: accepted });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`this review session is for run ${RUN} only`);
      expect(sent).toEqual([]);
    },
  );

  it('refuses paths that leave the repository', async () => {
    const client = await reviewSession();
    const result = await client.callTool({
      name: 'read_workspace_file',
      arguments: { path: '../etc/passwd' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('relative path inside the repository');
    expect(sent).toEqual([]);
  });

  it('names the server’s error when a call fails', async () => {
    const client = await reviewSession();
    const result = await client.callTool({ name: 'get_run', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('error NOT_FOUND: no server here');
    expect(sent[0]).toContain(`/v1/runs/${RUN}`);
  });

  it('cannot be built without its run', () => {
    expect(() =>
      createGatehouseMcpServer({
        url: 'http://127.0.0.1:9',
        token: 't',
        review: true,
        fetch: recordingFetch,
      }),
    ).toThrow(/needs its run's id/);
  });
});
