import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LiveServer } from 'gatehouse-hitl-sdk/testing';
import { serveGatewayHttp } from '../../gateway/http.js';
import { fetchWithOwnSignal } from '../../gateway/own-signal-fetch.js';
import { oneSendAtATime } from '../../one-send-at-a-time.js';
import { serveNotesHttp } from './notes-server.mjs';

/** The stdio upstream: run by node as a real process. */
export const NOTES_SCRIPT = fileURLToPath(new URL('./notes-server.mjs', import.meta.url));
/** The committed launcher of the built CLI (`npx tsc -b` first). */
const GATEHOUSE_BIN = fileURLToPath(new URL('../../../../cli/bin/gatehouse.cjs', import.meta.url));

/** How a test reaches the upstream: through the CLI over stdio, or the library over HTTP. */
export type Setup = 'stdio proxy, stdio upstream' | 'http proxy, http upstream';

/** A client connected to the gateway, and what the upstream received. */
export interface GatewayUnderTest {
  client: Client;
  /** The arguments of every write_note call the upstream received, oldest first. */
  recorded(): Record<string, unknown>[];
  /** What the gateway process wrote to stderr so far (empty for a gateway in this process). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * The policy for one test: `notes__write_note` gets `kind` (`gate-1s`: a gate denied after 1 s);
 * `notes__add_tool` and `notes__touch_readme` are allowed; resource reads and prompts get `reads` (`no rule`: the policy's default decides).
 */
export async function useNotesPolicy(
  server: LiveServer,
  kind: 'allow' | 'deny' | 'gate' | 'gate-1s',
  reads: 'allow' | 'deny' | 'gate' | 'no rule' = 'allow',
): Promise<void> {
  const action = kind === 'gate-1s' ? '{ gate: { timeoutSeconds: 1, timeoutAction: deny } }' : kind;
  const source = `name: gateway-tests
defaultAction: gate
rules:
  - id: adding-tools
    priority: 500
    match: { tools: [notes__add_tool, notes__touch_readme] }
    action: allow
    reason: Adding a tool or touching the read-me is harmless.
  - id: notes-writes
    priority: 500
    match: { tools: [notes__write_note] }
    action: ${action}
    reason: Notes are read-only today.
${
  reads === 'no rule'
    ? ''
    : `  - id: notes-reads
    priority: 500
    match: { tools: [notes__resources/read, notes__prompts/get] }
    action: ${reads}
    reason: Reading the notes server's resources and prompts.
`
}`;
  await server.test.services.policies.replace(server.test.ids.adminId, { source, format: 'yaml' });
}

async function viaCli(server: LiveServer, runId: string): Promise<GatewayUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-gateway-'));
  const record = join(dir, 'calls.jsonl');
  writeFileSync(record, '');
  const config = join(dir, 'mcp.json');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: expanded by the gateway from the environment
  const notes = { command: process.execPath, args: [NOTES_SCRIPT], env: { NOTES_RECORD_FILE: '${RECORD}' } };
  writeFileSync(config, JSON.stringify({ mcpServers: { notes } }));
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  const transport = oneSendAtATime(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        GATEHOUSE_BIN,
        'mcp',
        'proxy',
        '--config',
        config,
        '--url',
        server.url,
        '--run',
        runId,
        '--progress-seconds',
        '1',
      ],
      env: {
        ...getDefaultEnvironment(),
        GATEHOUSE_TOKEN: server.test.tokens.agent,
        RECORD: record,
        XDG_CONFIG_HOME: dir,
        // A warning names where it was raised, so a test can tell the gateway's own from its upstream's.
        NODE_OPTIONS: '--trace-warnings',
      },
      stderr: 'pipe',
    }),
  );
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    recorded: () =>
      readFileSync(record, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line)),
    close: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function viaHttp(server: LiveServer, runId: string): Promise<GatewayUnderTest> {
  const calls: Record<string, unknown>[] = [];
  const notes = await serveNotesHttp((args) => calls.push(args));
  const gateway = await serveGatewayHttp({
    upstreams: [{ kind: 'http', name: 'notes', url: notes.url, headers: {} }],
    url: server.url,
    runId,
    progressIntervalMs: 300,
    port: 0,
  });
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(gateway.url), {
    requestInit: { headers: { authorization: `Bearer ${server.test.tokens.agent}` } },
    fetch: fetchWithOwnSignal(),
  });
  await client.connect(transport);
  return {
    client,
    recorded: () => calls,
    stderr: () => '',
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
      await gateway.close();
      await notes.close();
    },
  };
}

/** Starts the gateway in front of the notes server and connects a client to it. */
export function startGateway(setup: Setup, server: LiveServer, runId: string): Promise<GatewayUnderTest> {
  return setup === 'http proxy, http upstream' ? viaHttp(server, runId) : viaCli(server, runId);
}
