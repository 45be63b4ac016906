import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_SCRIPT, useNotesPolicy } from '../testing/gateway/gateway-harness.js';
import { callTool, type LiveServer, startLiveServer, textOf } from '../testing/harness.js';

describe('the MCP gateway hosted by the Gatehouse server at /mcp/gateway', () => {
  let server: LiveServer;
  let dir: string;
  let record: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-hosted-gateway-'));
    record = join(dir, 'calls.jsonl');
    writeFileSync(record, '');
    const configFile = join(dir, 'mcp.json');
    const notes = { command: process.execPath, args: [NOTES_SCRIPT], env: { NOTES_RECORD_FILE: record } };
    writeFileSync(configFile, JSON.stringify({ mcpServers: { notes } }));
    server = await startLiveServer({ mcpGateway: { configFile, env: {} } });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'hosted-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/gateway`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  }

  it('refuses a caller without a token', async () => {
    const response = await fetch(`${server.url}/mcp/gateway`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(401);
  });

  it("lists the upstream's tools and puts each call through the policy with the caller's token", async () => {
    const client = await connect(server.test.tokens.agent);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'notes__add_tool',
        'notes__touch_readme',
        'notes__write_note',
      ]);

      await useNotesPolicy(server, 'deny');
      const denied = await callTool(client, 'notes__write_note', { title: 'no' });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('Denied by the Gatehouse policy (rule notes-writes)');

      await useNotesPolicy(server, 'gate');
      const pending = callTool(client, 'notes__write_note', { title: 'yes' });
      const gate = await server.pendingGate();
      expect(gate).toMatchObject({ agentId: server.test.ids.agentId, action: { tool: 'notes__write_note' } });
      await server.decide(gate.id, { option: 'approve' });
      expect(textOf(await pending)).toBe('saved yes');
      expect(
        readFileSync(record, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual([{ title: 'yes' }]);
    } finally {
      await client.close();
    }
  });
});
