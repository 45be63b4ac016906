import { spawn } from 'node:child_process';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  connect,
  createRun,
  GATEHOUSE_BIN,
  type LiveServer,
  startLiveServer,
} from './testing/harness.js';

/** Runs `gatehouse mcp …` with stdin closed at once and returns how it ended. */
function runMcp(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GATEHOUSE_BIN, 'mcp', ...args], {
      env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: '/nonexistent-gatehouse-config' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('elicitation over stdio', () => {
  let server: LiveServer;

  beforeAll(async () => {
    server = await startLiveServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lets the person at the client answer a pending gate, recorded with their own token', async () => {
    const runId = await createRun(server);
    const agent = await connect('stdio', server, server.test.tokens.agent, {
      args: ['--elicit', '--operator-token', server.test.tokens.developer],
      capabilities: { elicitation: {} },
    });
    const asked: string[] = [];
    agent.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { option: 'steer', instructions: 'only remove build/tmp' } };
    });
    try {
      const result = await callTool(agent.client, 'gatehouse_request_approval', {
        tool: 'shell',
        args: { command: 'rm -rf build' },
        runId,
        waitSeconds: 20,
      });
      expect(result.structuredContent).toMatchObject({
        status: 'steered',
        instructions: 'only remove build/tmp',
        decidedBy: server.test.ids.developerId,
      });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('Answering as dev (developer)');
    } finally {
      await agent.close();
    }
  });

  it('lets the person delegate from the form, picking the agent by name', async () => {
    const opened = await server.call(server.test.tokens.agent, 'POST', '/v1/gates', {
      operation: 'Fix the flaky checkout test',
      gateType: 'recovery_escalation',
      context: { severity: 'CRITICAL' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const gateId = opened.body.gate.id as string;
    const agent = await connect('stdio', server, server.test.tokens.agent, {
      args: ['--elicit', '--operator-token', server.test.tokens.developer],
      capabilities: { elicitation: {} },
    });
    const other = server.test.ids.otherAgentId;
    let offered: unknown = null;
    agent.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      offered = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } })
        .requestedSchema?.properties?.delegateTo;
      return {
        action: 'accept',
        content: { option: 'delegate', delegateTo: other, reason: 'beta knows it' },
      };
    });
    try {
      const result = await callTool(agent.client, 'gatehouse_wait_for_decision', { gateId, waitSeconds: 20 });
      expect(result.structuredContent).toMatchObject({ status: 'delegate' });
      expect(JSON.stringify(offered)).toContain(other);
      expect(JSON.stringify(offered)).not.toContain(server.test.ids.agentId);
      const gate = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gateId}`);
      expect(gate.body.gate.decision).toMatchObject({ option: 'delegate', delegateTo: other });
    } finally {
      await agent.close();
    }
  });

  it('shows hidden characters of the request as markers, under a warning', async () => {
    const agent = await connect('stdio', server, server.test.tokens.agent, {
      args: ['--elicit', '--operator-token', server.test.tokens.developer],
      capabilities: { elicitation: {} },
    });
    const asked: string[] = [];
    agent.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { option: 'reject', reason: 'hidden text' } };
    });
    try {
      await callTool(agent.client, 'gatehouse_request_approval', {
        tool: 'invoice_\u202efdp.sh',
        args: { command: 'echo safe\u202e && rm -rf ~', note: 'ok\u{e0041}' },
        waitSeconds: 20,
      });
      expect(asked).toHaveLength(1);
      const message = asked[0] ?? '';
      expect(message).toContain('This action contains hidden characters');
      expect(message).toContain('invoice_⟨U+202E⟩fdp.sh');
      expect(message).toContain('echo safe⟨U+202E⟩ && rm -rf ~');
      expect(message).toContain('ok⟨U+E0041⟩');
      expect(message).not.toMatch(/\u202e|\u{e0041}/u);
    } finally {
      await agent.close();
    }
  });

  it('never asks when it was not switched on, even if the client could answer', async () => {
    const runId = await createRun(server);
    const agent = await connect('stdio', server, server.test.tokens.agent, {
      capabilities: { elicitation: {} },
    });
    let asked = 0;
    agent.client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: 'accept', content: { option: 'approve' } };
    });
    try {
      const result = await callTool(agent.client, 'gatehouse_request_approval', {
        tool: 'shell',
        args: { command: 'rm -rf build' },
        runId,
        waitSeconds: 1,
      });
      expect(result.structuredContent).toMatchObject({ status: 'pending' });
      expect(asked).toBe(0);
    } finally {
      await agent.close();
    }
  });

  it('keeps waiting for the inbox when the person declines in the client', async () => {
    const runId = await createRun(server);
    const agent = await connect('stdio', server, server.test.tokens.agent, {
      args: ['--elicit', '--operator-token', server.test.tokens.developer],
      capabilities: { elicitation: {} },
    });
    agent.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    try {
      const result = await callTool(agent.client, 'gatehouse_request_approval', {
        tool: 'shell',
        args: { command: 'rm -rf build' },
        runId,
        waitSeconds: 1,
      });
      expect(result.structuredContent).toMatchObject({ status: 'pending' });
      const view = await server.call(
        server.test.tokens.developer,
        'GET',
        `/v1/gates/${result.structuredContent.gateId}`,
      );
      expect(view.body.gate.status).toBe('pending');
    } finally {
      await agent.close();
    }
  });

  it.each([
    ['an agent token', 'agent', 'not an agent token'],
    ['a viewer', 'viewer', 'role developer or higher'],
  ] as const)('refuses to start with %s as the operator', async (_label, who, message) => {
    const result = await runMcp([
      '--url',
      server.url,
      '--token',
      server.test.tokens.agent,
      '--elicit',
      '--operator-token',
      server.test.tokens[who],
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it('needs a token and explains its options', async () => {
    const missing = await runMcp(['--url', server.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('needs --token');
    const help = await runMcp(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: gatehouse mcp');
    expect(help.stdout).toContain('--elicit');
  });
});
