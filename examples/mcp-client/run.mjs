#!/usr/bin/env node
// An agent-side MCP client (the official MCP SDK's Client) that asks Gatehouse through `gatehouse mcp`.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readOptions, runMain, say, sayWaiting } from '../shared/cli.mjs';

const HELP = `Usage: node examples/mcp-client/run.mjs [--url URL] [--token TOKEN] [--path PATH]

An MCP client (the official MCP SDK's Client over stdio) starts \`gatehouse mcp\`, lists its tools,
asks to read README.md, which the policy allows at once, then asks to run \`rm -rf PATH\`: a gate
opens, and the client waits with gatehouse_wait_for_decision until a person decides it.`;

const GATEHOUSE_BIN = fileURLToPath(new URL('../../packages/cli/bin/gatehouse.cjs', import.meta.url));

/** Calls a Gatehouse MCP tool and returns its structured answer (throws on an error result). */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  if (result.isError) throw new Error(`${name}: ${result.content.map((part) => part.text).join(' ')}`);
  return result.structuredContent;
}

/** One line for an answer: status, who decided, and the reason or instructions. */
function describe(label, answer) {
  const by = answer.decidedBy ? ` by ${answer.decidedBy}` : '';
  const why = answer.instructions ?? answer.reason;
  return `${label}: ${answer.status}${by}${why ? ` (${why})` : ''}`;
}

async function main() {
  const { url, token, path } = readOptions(HELP);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [GATEHOUSE_BIN, 'mcp', '--url', url, '--token', token],
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'gatehouse-mcp-client-example', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    say(`tools: ${tools.map((tool) => tool.name).join(', ')}`);

    const read = await call(client, 'gatehouse_request_approval', {
      tool: 'read_file',
      args: { path: 'README.md' },
    });
    say(describe('read_file README.md', read));

    const command = `rm -rf ${path}`;
    const label = `shell_execute ${command}`;
    let answer = await call(client, 'gatehouse_request_approval', {
      tool: 'shell_execute',
      args: { command },
      wait: false,
    });
    if (answer.status === 'pending') sayWaiting(answer.gateId, label);
    while (answer.status === 'pending') {
      answer = await call(client, 'gatehouse_wait_for_decision', { gateId: answer.gateId, waitSeconds: 25 });
    }
    say(describe(label, answer));
    say(
      answer.proceed
        ? `would now run: ${command} (an example: nothing is removed)`
        : `not running: ${command}`,
    );
  } finally {
    await client.close();
  }
}

runMain(main);
