import { MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel, humanInTheLoopMiddleware, tool } from 'langchain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gatehouse } from '../client.js';
import { type LiveServer, reviewRun, startLiveServer } from '../testing/live-server.js';
import { type HitlAgent, resumeWithGatehouse } from './langchain.js';

let server: LiveServer;
let gatehouse: Gatehouse;
let runId: string;

beforeEach(async () => {
  server = await startLiveServer();
  gatehouse = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
  // At review autonomy the run implements without a plan approved first (Gate 0), so the
  // calls' own gates are the only gates of the run.
  runId = await reviewRun(server, 'langchain createAgent');
});

afterEach(async () => {
  await server.close();
});

type Config = { configurable: { thread_id: string } };
type State = {
  messages: Array<{ getType?: () => string; content: unknown }>;
  __interrupt__?: unknown[];
};
type TestAgent = HitlAgent<Config, State> & {
  invoke(input: { messages: Array<{ role: string; content: string }> }, config: Config): Promise<State>;
};

/** An existing createAgent agent with humanInTheLoopMiddleware; only the decision source changes. */
function cleaningAgent(ran: string[], allowedDecisions: Array<'approve' | 'edit' | 'reject'>) {
  const deleteFile = tool(
    async ({ path }: { path: string }) => {
      ran.push(path);
      return `deleted ${path}`;
    },
    { name: 'delete_file', description: 'Delete a file or folder', schema: z.object({ path: z.string() }) },
  );
  const model = new FakeToolCallingModel({
    toolCalls: [[{ name: 'delete_file', args: { path: 'build/' }, id: 'call_lc' }], []],
  });
  // The middleware's zod v3 types trip exactOptionalPropertyTypes, so the agent is seen through TestAgent.
  const options = {
    model,
    tools: [deleteFile],
    middleware: [humanInTheLoopMiddleware({ interruptOn: { delete_file: { allowedDecisions } } } as never)],
    checkpointer: new MemorySaver(),
  };
  return createAgent(options as never) as unknown as TestAgent;
}

async function pausedRun(agent: TestAgent, threadId: string, announced: string[] = []) {
  const config: Config = { configurable: { thread_id: threadId } };
  const paused = await agent.invoke(
    { messages: [{ role: 'user', content: 'clean the build folder' }] },
    config,
  );
  expect(paused.__interrupt__).toHaveLength(1);
  const resume = () =>
    resumeWithGatehouse(agent, config, gatehouse, {
      threadId,
      request: { runId },
      onGate: (gateId, toolName) => announced.push(`${toolName} ${gateId}`),
    });
  return { resume };
}

const toolText = (state: State) =>
  JSON.stringify(state.messages.filter((message) => message.getType?.() === 'tool').map((m) => m.content));

describe('LangChain createAgent: humanInTheLoopMiddleware answered from Gatehouse', () => {
  it('approves: the tool runs with the model’s arguments and the one-off approval is used', async () => {
    const ran: string[] = [];
    const announced: string[] = [];
    const agent = cleaningAgent(ran, ['approve', 'edit', 'reject']);
    const { resume } = await pausedRun(agent, 'lc-approve', announced);
    const resuming = resume();
    const pending = await server.pendingGate();
    expect(pending.action).toMatchObject({ tool: 'delete_file', args: { path: 'build/' } });
    await expect.poll(() => announced).toEqual([`delete_file ${pending.id}`]);
    await server.decide(pending.id, { option: 'approve' });
    const state = await resuming;
    expect(ran).toEqual(['build/']);
    expect(toolText(state)).toContain('deleted build/');
    const gate = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${pending.id}`);
    expect(gate.body.consumedAt).not.toBeNull();
  });

  it('turns an edited approval into an edit decision with the person’s arguments', async () => {
    const ran: string[] = [];
    const { resume } = await pausedRun(cleaningAgent(ran, ['approve', 'edit', 'reject']), 'lc-edit');
    const resuming = resume();
    const pending = await server.pendingGate();
    await server.decide(pending.id, { option: 'approve', editedArgs: { path: 'build/cache/' } });
    const state = await resuming;
    expect(ran).toEqual(['build/cache/']);
    expect(toolText(state)).toContain('deleted build/cache/');
  });

  it('answers a resumption that stopped after using the approval with a rejection, never a second run', async () => {
    const ran: string[] = [];
    const agent = cleaningAgent(ran, ['approve', 'edit', 'reject']);
    const threadId = 'lc-stopped';
    const config: Config = { configurable: { thread_id: threadId } };
    await pausedRun(agent, threadId);
    // The first resumption uses the approval, then the process stops before the agent goes on.
    const stopping = { graph: agent.graph, invoke: () => Promise.reject(new Error('the process stopped')) };
    const options = { threadId, request: { runId } };
    const first = resumeWithGatehouse(stopping, config, gatehouse, options);
    const pending = await server.pendingGate();
    await server.decide(pending.id, { option: 'approve' });
    await expect(first).rejects.toThrow('the process stopped');
    const state = await resumeWithGatehouse(agent, config, gatehouse, options);
    expect(ran).toEqual([]);
    expect(toolText(state)).toContain(`The approval on gate ${pending.id} was already used`);
  });

  it('rejects with the reviewer reason, and refuses an edit the agent does not allow', async () => {
    const ran: string[] = [];
    const first = await pausedRun(cleaningAgent(ran, ['approve', 'edit', 'reject']), 'lc-reject');
    const rejecting = first.resume();
    const pending = await server.pendingGate();
    await server.decide(pending.id, { option: 'reject', reason: 'the build is still needed' });
    const rejected = await rejecting;
    expect(ran).toEqual([]);
    expect(toolText(rejected)).toContain('the build is still needed');

    const second = await pausedRun(cleaningAgent(ran, ['approve', 'reject']), 'lc-no-edit');
    const refusing = second.resume();
    const other = await server.pendingGate();
    await server.decide(other.id, { option: 'approve', editedArgs: { path: 'build/cache/' } });
    const refused = await refusing;
    expect(ran).toEqual([]);
    expect(toolText(refused)).toContain('does not allow');
  });
});
