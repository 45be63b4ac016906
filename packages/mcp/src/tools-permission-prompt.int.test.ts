import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Connected,
  callTool,
  connect,
  type LiveServer,
  startLiveServer,
  textOf,
} from './testing/harness.js';

describe('gatehouse_permission_prompt for claude -p --permission-prompt-tool', () => {
  let server: LiveServer;
  let agent: Connected;

  beforeAll(async () => {
    server = await startLiveServer();
    agent = await connect('http', server, server.test.tokens.agent);
  });

  afterAll(async () => {
    await agent?.close();
    await server?.close();
  });

  function ask(toolName: string, input: Record<string, unknown>) {
    return callTool(agent.client, 'gatehouse_permission_prompt', {
      tool_name: toolName,
      input,
      tool_use_id: `toolu_${toolName}_${Object.keys(input).join('_')}`,
    });
  }

  it('allows what the policy allows, with the input unchanged, as the JSON text Claude Code reads', async () => {
    const input = { file_path: '/home/dev/shop/README.md' };
    const result = await ask('Read', input);
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({ behavior: 'allow', updatedInput: input });
  });

  it('waits on the gate and allows a person’s edited arguments as updatedInput', async () => {
    const pending = ask('Bash', { command: 'make deploy ENV=prod' });
    const gate = await server.pendingGate();
    const editedArgs = { command: 'make deploy ENV=staging' };
    expect((await server.decide(gate.id, { option: 'approve', editedArgs })).status).toBe(200);
    expect(JSON.parse(textOf(await pending))).toEqual({ behavior: 'allow', updatedInput: editedArgs });
  });

  it('denies with the person’s reason when they reject', async () => {
    const pending = ask('Bash', { command: 'git push --force' });
    const gate = await server.pendingGate();
    await server.decide(gate.id, { option: 'reject', reason: 'never force-push main' });
    const answer = JSON.parse(textOf(await pending));
    expect(answer.behavior).toBe('deny');
    expect(answer.message).toContain('user_dev rejected this Bash call');
    expect(answer.message).toContain('never force-push main');
  });

  it('denies when the server is unreachable (fails closed)', async () => {
    const lost = await startLiveServer();
    const client = await connect('stdio', lost, lost.test.tokens.agent);
    await lost.close();
    try {
      const result = await callTool(client.client, 'gatehouse_permission_prompt', {
        tool_name: 'Read',
        input: { file_path: '/a' },
      });
      expect(JSON.parse(textOf(result)).behavior).toBe('deny');
    } finally {
      await client.close();
    }
  });
});
