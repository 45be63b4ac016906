import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveNotesHttp } from '../testing/gateway/notes-server.mjs';
import { GATEHOUSE_BIN, type LiveServer, startLiveServer } from '../testing/harness.js';
import { type RunningHttpGateway, serveGatewayHttp } from './http.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('the MCP gateway at the edges', () => {
  let server: LiveServer;
  let notes: Awaited<ReturnType<typeof serveNotesHttp>>;
  let gateway: RunningHttpGateway;

  beforeAll(async () => {
    server = await startLiveServer();
    notes = await serveNotesHttp(() => {});
    gateway = await serveGatewayHttp({
      upstreams: [{ kind: 'http', name: 'notes', url: notes.url, headers: {} }],
      url: server.url,
      port: 0,
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await notes?.close();
    await server?.close();
  });

  function post(token: string | null, body: unknown, headers: Record<string, string> = {}) {
    return fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...headers,
      },
      body: JSON.stringify(body),
    });
  }

  it('over HTTP, opens a session only for a token Gatehouse accepts, and only that token may use it', async () => {
    expect((await post(null, INITIALIZE)).status).toBe(401);
    expect((await post('gha_not-a-token', INITIALIZE)).status).toBe(401);
    const opened = await post(server.test.tokens.agent, INITIALIZE);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const other = await post(server.test.tokens.developer, list, { 'mcp-session-id': sessionId });
    expect(other.status).toBe(404);
    const own = await post(server.test.tokens.agent, list, {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('notes__write_note');
  });

  it('over HTTP, refuses a Host header that is not its own address', async () => {
    const body = JSON.stringify(INITIALIZE);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(gateway.url, {
        method: 'POST',
        headers: {
          host: 'evil.example:80',
          authorization: `Bearer ${server.test.tokens.agent}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });

  it('from the command line, fronts one HTTP upstream given by --upstream and --name', async () => {
    const client = new Client({ name: 'gateway-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [GATEHOUSE_BIN, 'mcp', 'proxy', '--name', 'jot', '--upstream', notes.url, '--url', server.url],
      env: { ...getDefaultEnvironment(), GATEHOUSE_TOKEN: server.test.tokens.agent },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'jot__add_tool',
        'jot__touch_readme',
        'jot__write_note',
      ]);
    } finally {
      await client.close();
    }
  });

  it.each([
    [['--token', 'x'], 'give exactly one of --config <file>, --upstream <url> or -- <command>'],
    [['--token', 'x', '--upstream', 'http://127.0.0.1:1/mcp', '--', 'node'], 'give exactly one of'],
    [['--http', '--token', 'x', '--', 'node'], '--token does not apply with --http'],
    [['--port', '1', '--token', 'x', '--', 'node'], '--port only applies with --http'],
    [['--token', 'x', '--name', 'a__b', '--', 'node'], 'a server name is 1–48 letters'],
    [
      ['--token', 'x', '--progress-seconds', '0', '--', 'node'],
      '--progress-seconds must be a whole number from 1 to 60',
    ],
  ])('refuses `gatehouse mcp proxy %j` with a usage error', (args, message) => {
    const run = spawnSync(process.execPath, [GATEHOUSE_BIN, 'mcp', 'proxy', ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      timeout: 20_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('stops with an error naming an upstream it cannot start', () => {
    const run = spawnSync(
      process.execPath,
      [GATEHOUSE_BIN, 'mcp', 'proxy', '--token', 'x', '--name', 'ghost', '--', '/nonexistent/server'],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 20_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('upstream "ghost" could not be reached');
  });
});
