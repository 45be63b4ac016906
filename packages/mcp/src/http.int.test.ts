import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  connect,
  createRun,
  GATEHOUSE_BIN,
  type LiveServer,
  startLiveServer,
} from './testing/harness.js';

const INSPECTOR_CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli');

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** POSTs one JSON-RPC message to /mcp. */
function post(server: LiveServer, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** Runs the MCP Inspector's CLI to completion and returns its output. */
function inspector(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The inspector finds its own package.json relative to the working directory, so run it from its build folder.
    const child = spawn(process.execPath, [INSPECTOR_CLI, '--cli', ...args], {
      cwd: dirname(INSPECTOR_CLI),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('MCP over Streamable HTTP at /mcp', () => {
  let server: LiveServer;

  beforeAll(async () => {
    server = await startLiveServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('refuses a call without a bearer token, and a session cookie alone', async () => {
    const none = await post(server, initialize, {});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    const cookie = await post(server, initialize, {
      cookie: `gatehouse_session=${server.test.tokens.developer}`,
    });
    expect(cookie.status).toBe(401);
    const bad = await post(server, initialize, { authorization: 'Bearer gha_not_a_token' });
    expect(bad.status).toBe(401);
  });

  it('binds a session to the token that opened it', async () => {
    const opened = await post(server, initialize, { authorization: `Bearer ${server.test.tokens.agent}` });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') as string;
    expect(sessionId).toBeTruthy();
    await opened.text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const other = await post(server, list, {
      authorization: `Bearer ${server.test.tokens.otherAgent}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(other.status).toBe(404);
    const unknown = await post(server, list, {
      authorization: `Bearer ${server.test.tokens.agent}`,
      'mcp-session-id': 'not-a-session',
    });
    expect(unknown.status).toBe(404);
    const noSession = await post(server, list, { authorization: `Bearer ${server.test.tokens.agent}` });
    expect(noSession.status).toBe(400);
  });

  it('keeps another agent’s runs out of reach', async () => {
    const runId = await createRun(server);
    const other = await connect('http', server, server.test.tokens.otherAgent);
    try {
      const context = await callTool(other.client, 'guardrails_get_context', { runId });
      expect(context.isError).toBe(true);
      await expect(
        other.client.readResource({ uri: `gatehouse://runs/${runId}/briefing` }),
      ).rejects.toThrow();
    } finally {
      await other.close();
    }
  });

  it('stops serving a session at once when its token is revoked', async () => {
    const created = await server.call(server.test.tokens.admin, 'POST', '/v1/agents', {
      name: 'short-lived',
    });
    const agent = await connect('http', server, created.body.token);
    try {
      const before = await callTool(agent.client, 'guardrails_get_context', {});
      expect(before.isError).toBeFalsy();
      await server.call(
        server.test.tokens.admin,
        'POST',
        `/v1/agents/${created.body.agent.id}/tokens/revoke`,
      );
      await expect(callTool(agent.client, 'guardrails_get_context', {})).rejects.toThrow(/UNAUTHENTICATED/);
    } finally {
      await agent.close();
    }
  });

  it('rejects bad tool input naming the field, before calling Gatehouse', async () => {
    const agent = await connect('http', server, server.test.tokens.agent);
    try {
      const result = await callTool(agent.client, 'gatehouse_wait_for_decision', {
        gateId: 'nope',
        waitSeconds: 600,
      });
      expect(result.isError).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      expect(text).toContain('gateId');
      expect(text).toContain('waitSeconds');
    } finally {
      await agent.close();
    }
  });
});

describe('the MCP Inspector CLI', () => {
  let server: LiveServer;

  beforeAll(async () => {
    server = await startLiveServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists the tools of `gatehouse mcp` over stdio', async () => {
    const result = await inspector([process.execPath, GATEHOUSE_BIN, 'mcp', '--method', 'tools/list'], {
      GATEHOUSE_URL: server.url,
      GATEHOUSE_TOKEN: server.test.tokens.agent,
      XDG_CONFIG_HOME: '/nonexistent-gatehouse-config',
    });
    expect(result.code, result.stderr).toBe(0);
    const names = (JSON.parse(result.stdout).tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('gatehouse_request_approval');
    expect(names).toContain('gatehouse_journal_append');
    expect(names).toContain('gatehouse_analyze_change');
    expect(names).toContain('gatehouse_ask_human');
    expect(names).toContain('gatehouse_permission_prompt');
    expect(names).toHaveLength(11);
  });

  it('lists the tools of /mcp over Streamable HTTP and calls one', async () => {
    const url = `${server.url}/mcp`;
    const header = `Authorization: Bearer ${server.test.tokens.agent}`;
    const list = await inspector(
      [url, '--transport', 'http', '--header', header, '--method', 'tools/list'],
      {},
    );
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).tools).toHaveLength(11);
    const call = await inspector(
      [
        url,
        '--transport',
        'http',
        '--header',
        header,
        '--method',
        'tools/call',
        '--tool-name',
        'gatehouse_request_approval',
        '--tool-arg',
        'tool=read_file',
      ],
      {},
    );
    expect(call.code, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout).structuredContent).toMatchObject({ status: 'approved', proceed: true });
  });
});
