import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { type AutonomyLevel, requiresIntentApproval } from 'gatehouse-hitl-core';
import {
  approvePlan,
  type Json,
  type LiveServer,
  reviewRun,
  startLiveServer as startSdkLiveServer,
} from 'gatehouse-hitl-sdk/testing';
import type { ServerConfig } from 'gatehouse-hitl-server';
import { mcpEndpoints } from '../endpoints.js';

export type { Json, LiveServer };
export { reviewRun };

/** A real Gatehouse server on 127.0.0.1 and SQLite with this package's endpoints at `/mcp` and `/mcp/gateway`. */
export function startLiveServer(config: Partial<ServerConfig> = {}): Promise<LiveServer> {
  return startSdkLiveServer(config, { mcp: mcpEndpoints });
}

/** The committed launcher of the built CLI; stdio tests run it as a real process (`npx tsc -b` first). */
export const GATEHOUSE_BIN = fileURLToPath(new URL('../../../cli/bin/gatehouse.cjs', import.meta.url));

export type TransportKind = 'http' | 'stdio';

/** A connected MCP client and what it takes to disconnect it. */
export interface Connected {
  client: Client;
  /** What the stdio server process wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Extra `gatehouse mcp` arguments (stdio only), e.g. ['--elicit', '--operator-token', t]. */
  args?: string[];
  /** Client capabilities, e.g. { elicitation: {} }. */
  capabilities?: ClientCapabilities;
}

/** Connects the MCP SDK's own Client to Gatehouse over Streamable HTTP (`/mcp`) or stdio (`gatehouse mcp`). */
export async function connect(
  kind: TransportKind,
  server: LiveServer,
  token: string,
  options: ConnectOptions = {},
): Promise<Connected> {
  const client = new Client(
    { name: 'gatehouse-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  if (kind === 'http') {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    return {
      client,
      stderr: () => '',
      close: async () => {
        await transport.terminateSession().catch(() => {});
        await client.close();
      },
    };
  }
  const config = mkdtempSync(join(tmpdir(), 'gatehouse-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [GATEHOUSE_BIN, 'mcp', '--url', server.url, '--token', token, ...(options.args ?? [])],
    env: { ...getDefaultEnvironment(), XDG_CONFIG_HOME: config },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    close: async () => {
      await client.close();
      rmSync(config, { recursive: true, force: true });
    },
  };
}

/** Calls a tool and returns its result (structured content typed loosely for assertions). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult & { structuredContent?: Json }> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 })) as CallToolResult;
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/**
 * Starts a run as the test agent and returns its id; where its autonomy level holds implementation
 * until a plan is approved (Gate 0), the plan is sent and approved first.
 */
export async function createRun(server: LiveServer, body: Record<string, unknown> = {}): Promise<string> {
  const response = await server.call(server.test.tokens.agent, 'POST', '/v1/runs', {
    title: 'mcp test',
    ...body,
  });
  if (response.status !== 201)
    throw new Error(`run not created: ${response.status} ${JSON.stringify(response.body)}`);
  const run = response.body.run as { id: string; autonomy: AutonomyLevel };
  if (requiresIntentApproval(run.autonomy)) await approvePlan(server, run.id);
  return run.id;
}
