import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import {
  Agent,
  tool as agentTool,
  type Model,
  type ModelRequest,
  type ModelResponse,
  RunState,
  run,
  setTracingDisabled,
  Usage,
} from '@openai/agents';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gatehouse } from '../client.js';
import { type LiveServer, reviewRun, startLiveServer } from '../testing/live-server.js';
import { answerApprovals, gatehouseTools, withGatehouseApproval } from './ai.js';
import type { GatehouseDecision } from './decision.js';
import { requestApproval, resumeWithDecision } from './langgraph.js';
import { gatehouseNeedsApproval, gatehouseTool, resolveInterruptions } from './openai-agents.js';

let server: LiveServer;
let gatehouse: Gatehouse;
let runId: string;

beforeAll(() => setTracingDisabled(true));

beforeEach(async () => {
  server = await startLiveServer();
  gatehouse = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
  // At review autonomy the run implements without a plan approved first (Gate 0), so the
  // calls' own gates are the only gates of the run.
  runId = await reviewRun(server, 'edited approvals');
});

afterEach(async () => {
  await server.close();
});

/** A person approves the pending gate with `path` changed; returns the gate. */
async function approveEdited(path: string) {
  const pending = await server.pendingGate();
  expect(pending.editable).toBe(true);
  const decided = await server.decide(pending.id, { option: 'approve', editedArgs: { path } });
  expect(decided.status).toBe(200);
  return pending;
}

async function consumed(gateId: string): Promise<boolean> {
  const gate = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gateId}`);
  return gate.body.consumedAt !== null;
}

describe('LangGraph: a person’s edit reaches the node like a HITL edit decision', () => {
  it('resumes the node with the edited arguments, which it runs', async () => {
    const State = Annotation.Root({ path: Annotation<string>(), approval: Annotation<GatehouseDecision>() });
    const ran: string[] = [];
    const graph = new StateGraph(State)
      .addNode('act', async (state: typeof State.State) => {
        const decision = await requestApproval(gatehouse, {
          tool: 'delete_file',
          args: { path: state.path },
          runId,
        });
        if (decision.outcome === 'approved') ran.push(String(decision.args?.path));
        return { approval: decision };
      })
      .addEdge(START, 'act')
      .addEdge('act', END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'edit-thread' } };
    await graph.invoke({ path: 'build/' }, config);
    const pending = await approveEdited('build/cache/');
    const state = await resumeWithDecision(graph, config, gatehouse);
    expect(ran).toEqual(['build/cache/']);
    expect(state.approval).toMatchObject({ edited: true, args: { path: 'build/cache/' } });
    expect(await consumed(pending.id)).toBe(true);
  });
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function scriptedAiModel(input: Record<string, unknown>) {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1);
      if (last?.role !== 'tool') {
        const call = {
          type: 'tool-call' as const,
          toolCallId: 'call-edit',
          toolName: 'delete_file',
          input: JSON.stringify(input),
        };
        return {
          content: [call],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      const text = `saw ${JSON.stringify(last.content)}`;
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

function deleteTool(ran: string[]) {
  return tool({
    description: 'Delete a file or folder',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      ran.push(path);
      return { deleted: path };
    },
  });
}

const messages: ModelMessage[] = [{ role: 'user', content: 'clean the build folder' }];

describe('Vercel AI SDK: an approved edit runs in place of the model’s input', () => {
  it('answerApprovals approves and the tool runs the edited input', async () => {
    const ran: string[] = [];
    const tools = gatehouseTools(gatehouse, { delete_file: deleteTool(ran) }, { request: { runId } });
    const model = scriptedAiModel({ path: 'build/' });
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    const [{ message, answers }, pending] = await Promise.all([
      answerApprovals(gatehouse, first, tools),
      approveEdited('build/cache/'),
    ]);
    expect(answers[0]?.decision).toMatchObject({ edited: true, args: { path: 'build/cache/' } });
    const next = [...messages, ...first.response.messages, ...(message === null ? [] : [message])];
    const second = await generateText({ model, tools, messages: next, stopWhen: stepCountIs(5) });
    expect(ran).toEqual(['build/cache/']);
    expect(second.text).toContain('build/cache/');
    expect(await consumed(pending.id)).toBe(true);
  });

  it('runs the approved edit, never the model’s input, after a restart between the answer and the run', async () => {
    const ran: string[] = [];
    const tools = gatehouseTools(gatehouse, { delete_file: deleteTool(ran) }, { request: { runId } });
    const model = scriptedAiModel({ path: 'build/' });
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    const [{ message }] = await Promise.all([
      answerApprovals(gatehouse, first, tools),
      approveEdited('build/cache/'),
    ]);
    // The process stops here; the next one makes its tools again and carries on from the messages.
    const restarted = gatehouseTools(gatehouse, { delete_file: deleteTool(ran) }, { request: { runId } });
    const next = [...messages, ...first.response.messages, ...(message === null ? [] : [message])];
    const second = await generateText({ model, tools: restarted, messages: next, stopWhen: stepCountIs(5) });
    expect(ran).toEqual(['build/cache/']);
    expect(second.text).toContain('build/cache/');
  });

  it('withGatehouseApproval runs the edited input inside execute', async () => {
    const ran: string[] = [];
    const tools = {
      delete_file: withGatehouseApproval(gatehouse, 'delete_file', deleteTool(ran), { request: { runId } }),
    };
    const [result] = await Promise.all([
      generateText({ model: scriptedAiModel({ path: 'build/' }), tools, messages, stopWhen: stepCountIs(3) }),
      approveEdited('build/cache/'),
    ]);
    expect(ran).toEqual(['build/cache/']);
    expect(result.text).toContain('build/cache/');
  });
});

class ScriptedAgentModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = typeof request.input === 'string' ? [] : request.input;
    const last = input.at(-1);
    if (last?.type !== 'function_call_result') {
      const call = {
        type: 'function_call' as const,
        callId: 'call_edit',
        name: 'delete_file',
        arguments: JSON.stringify({ path: 'build/' }),
        status: 'completed' as const,
      };
      return { usage: new Usage(), output: [call] };
    }
    const content = [{ type: 'output_text' as const, text: `saw ${JSON.stringify(last.output)}` }];
    return {
      usage: new Usage(),
      output: [{ type: 'message', role: 'assistant', status: 'completed', content }],
    };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }
}

async function gateCount(): Promise<number> {
  const all = await server.call(server.test.tokens.developer, 'GET', `/v1/gates?runId=${runId}`);
  return all.body.items.length;
}

function cleaner(deleteFile: ReturnType<typeof agentTool>) {
  return new Agent({
    name: 'cleaner',
    instructions: 'Tidy.',
    model: new ScriptedAgentModel(),
    tools: [deleteFile],
  });
}

/** delete_file behind `gatehouseTool`, recording the paths it deleted in `ran`. */
function gatedDeleteFile(ran: string[]) {
  return gatehouseTool(
    gatehouse,
    agentTool({
      name: 'delete_file',
      description: 'Delete a file or folder',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        ran.push(path);
        return `deleted ${path}`;
      },
    }),
    { request: { runId } },
  );
}

describe('OpenAI Agents SDK: an approved edit runs through the tool’s invoke', () => {
  it('runs the tool with the edited arguments after resolveInterruptions, on one gate', async () => {
    const ran: string[] = [];
    const agent = cleaner(gatedDeleteFile(ran));
    const paused = await run(agent, 'clean the build folder');
    const decisions: GatehouseDecision[] = [];
    const [result, pending] = await Promise.all([
      resolveInterruptions(paused, gatehouse, { agent, onDecision: (decision) => decisions.push(decision) }),
      approveEdited('build/cache/'),
    ]);
    expect(ran).toEqual(['build/cache/']);
    expect(result.finalOutput).toContain('deleted build/cache/');
    expect(decisions).toMatchObject([{ edited: true, args: { path: 'build/cache/' } }]);
    expect(await consumed(pending.id)).toBe(true);
    // Asked again on resume, the decided call opened no second gate.
    expect(await gateCount()).toBe(1);
  });

  it('runs the edited arguments after a restart between the approval and the run', async () => {
    const ran: string[] = [];
    const agent = cleaner(gatedDeleteFile(ran));
    const paused = await run(agent, 'clean the build folder');
    // The process saves the approved run, then stops before the tool runs.
    let saved = '';
    const crashing = {
      run: async (_agent: unknown, state: RunState<unknown, Agent>) => {
        saved = state.toString();
        throw new Error('the process stopped');
      },
    };
    await Promise.all([
      expect(resolveInterruptions(paused, gatehouse, { agent, runner: crashing })).rejects.toThrow(
        'the process stopped',
      ),
      approveEdited('build/cache/'),
    ]);
    expect(ran).toEqual([]);
    // After the restart nothing of the first process is in memory: the tool is made again.
    const restarted = cleaner(gatedDeleteFile(ran));
    const result = await run(restarted, await RunState.fromString(restarted, saved));
    expect(ran).toEqual(['build/cache/']);
    expect(result.finalOutput).toContain('deleted build/cache/');
    expect(await gateCount()).toBe(1);
  });

  it('answers a run restored from before the approval was used with a rejection, never a second run', async () => {
    const ran: string[] = [];
    const agent = cleaner(gatedDeleteFile(ran));
    const paused = await run(agent, 'clean the build folder');
    const saved = paused.state.toString();
    // The approval is used, then the process stops before the tool runs; the state saved before is restored.
    const crashing = {
      run: async () => {
        throw new Error('the process stopped');
      },
    };
    const approving = (async () => {
      const pending = await server.pendingGate();
      await server.decide(pending.id, { option: 'approve' });
      return pending;
    })();
    await expect(resolveInterruptions(paused, gatehouse, { agent, runner: crashing })).rejects.toThrow(
      'the process stopped',
    );
    const pending = await approving;
    const restarted = cleaner(gatedDeleteFile(ran));
    const state = await RunState.fromString(restarted, saved);
    const result = await resolveInterruptions(state, gatehouse, { agent: restarted });
    expect(ran).toEqual([]);
    expect(result.finalOutput).toContain(`The approval on gate ${pending.id} was already used`);
  });

  it('refuses an edited approval for a tool that cannot take edits, running nothing', async () => {
    const ran: string[] = [];
    const deleteFile = agentTool({
      name: 'delete_file',
      description: 'Delete a file or folder',
      parameters: z.object({ path: z.string() }),
      needsApproval: gatehouseNeedsApproval(gatehouse, 'delete_file', { request: { runId } }),
      execute: async ({ path }) => {
        ran.push(path);
        return `deleted ${path}`;
      },
    });
    const agent = cleaner(deleteFile);
    const paused = await run(agent, 'clean the build folder');
    const [result, pending] = await Promise.all([
      resolveInterruptions(paused, gatehouse, { agent }),
      approveEdited('build/cache/'),
    ]);
    expect(ran).toEqual([]);
    expect(result.finalOutput).toContain('cannot take');
    expect(result.finalOutput).toContain('build/cache/');
    expect(await consumed(pending.id)).toBe(false);
    expect(await gateCount()).toBe(1);
  });
});
