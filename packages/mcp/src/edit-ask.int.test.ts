import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Connected,
  callTool,
  connect,
  createRun,
  type LiveServer,
  startLiveServer,
  textOf,
} from './testing/harness.js';

describe('edited approvals and questions over MCP', () => {
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

  it('returns a person’s edited arguments and tells the model plainly to use them', async () => {
    const runId = await createRun(server);
    const pending = callTool(agent.client, 'gatehouse_request_approval', {
      tool: 'shell',
      args: { command: 'make deploy ENV=prod' },
      runId,
      waitSeconds: 30,
    });
    const gate = await server.pendingGate(`&runId=${runId}`);
    const editedArgs = { command: 'make deploy ENV=staging' };
    expect((await server.decide(gate.id, { option: 'approve', editedArgs })).status).toBe(200);
    const result = await pending;
    expect(result.structuredContent).toMatchObject({ status: 'approved', edited: true, args: editedArgs });
    expect(textOf(result)).toContain('never the ones you proposed');
    expect(textOf(result)).toContain('ENV=staging');
    const view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    expect(view.body.consumedAt).not.toBeNull();
  });

  it('gatehouse_ask_human returns the person’s answer', async () => {
    const runId = await createRun(server);
    const pending = callTool(agent.client, 'gatehouse_ask_human', {
      question: 'Which region should the bucket live in?',
      runId,
      waitSeconds: 30,
    });
    const gate = await server.pendingGate(`&runId=${runId}`);
    expect(gate).toMatchObject({ type: 'question', title: 'Which region should the bucket live in?' });
    await server.decide(gate.id, { option: 'answer', answer: 'eu-west-1' });
    const result = await pending;
    expect(result.structuredContent).toMatchObject({ status: 'answer', answer: 'eu-west-1', proceed: false });
    expect(textOf(result)).toContain('eu-west-1');
  });
});
