import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  RunState,
  run,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gatehouse } from '../client.js';
import { type LiveServer, reviewRun, startLiveServer } from '../testing/live-server.js';
import type { GatehouseDecision } from './decision.js';
import { gatehouseNeedsApproval, resolveInterruptions } from './openai-agents.js';

let server: LiveServer;
let gatehouse: Gatehouse;
let runId: string;

beforeAll(() => setTracingDisabled(true));

beforeEach(async () => {
  server = await startLiveServer();
  gatehouse = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
  // At review autonomy the run implements without a plan approved first (Gate 0), so the
  // calls' own gates are the only gates of the run.
  runId = await reviewRun(server, 'openai agents adapter');
});

afterEach(async () => {
  await server.close();
});

let calls = 0;

/** A Model that calls one tool, then answers with the output of the last tool call it was shown. */
class ScriptedModel implements Model {
  readonly inputs: AgentInputItem[][] = [];
  readonly #callId = `call_${++calls}`;

  constructor(
    private readonly toolName: string,
    private readonly args: Record<string, unknown>,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = typeof request.input === 'string' ? [] : request.input;
    this.inputs.push(input);
    const last = input.at(-1);
    if (last?.type !== 'function_call_result') {
      const call = {
        type: 'function_call' as const,
        callId: this.#callId,
        name: this.toolName,
        arguments: JSON.stringify(this.args),
        status: 'completed' as const,
      };
      return { usage: new Usage(), output: [call] };
    }
    const text = `saw ${JSON.stringify(last.output)}`;
    const message = {
      type: 'message' as const,
      role: 'assistant' as const,
      status: 'completed' as const,
      content: [{ type: 'output_text' as const, text }],
    };
    return { usage: new Usage(), output: [message] };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }
}

function fileAgent(model: Model, ran: string[], onGate?: (gateId: string) => void) {
  const approval = (name: string) =>
    gatehouseNeedsApproval(gatehouse, name, { request: { runId }, ...(onGate ? { onGate } : {}) });
  const deleteFile = tool({
    name: 'delete_file',
    description: 'Delete a file or folder',
    parameters: z.object({ path: z.string() }),
    needsApproval: approval('delete_file'),
    execute: async ({ path }) => {
      ran.push(`delete ${path}`);
      return `deleted ${path}`;
    },
  });
  const readFile = tool({
    name: 'read_file',
    description: 'Read a file',
    parameters: z.object({ path: z.string() }),
    needsApproval: approval('read_file'),
    execute: async ({ path }) => {
      ran.push(`read ${path}`);
      return `contents of ${path}`;
    },
  });
  return new Agent({
    name: 'cleaner',
    instructions: 'Keep the repo tidy.',
    model,
    tools: [deleteFile, readFile],
  });
}

describe('OpenAI Agents SDK tools behind Gatehouse', () => {
  it('interrupts on the model tool call and runs the tool once a developer approves', async () => {
    const ran: string[] = [];
    const gateIds: string[] = [];
    const model = new ScriptedModel('delete_file', { path: 'build/' });
    const agent = fileAgent(model, ran, (id) => gateIds.push(id));

    const paused = await run(agent, 'clean the build folder');
    expect(paused.interruptions.map((item) => item.name)).toEqual(['delete_file']);
    expect(ran).toEqual([]);
    const pending = await server.pendingGate();
    expect(gateIds).toEqual([pending.id]);
    expect(pending).toMatchObject({ runId, action: { tool: 'delete_file', args: { path: 'build/' } } });

    const decisions: GatehouseDecision[] = [];
    const resolving = resolveInterruptions(paused, gatehouse, {
      agent,
      onDecision: (decision) => decisions.push(decision),
    });
    expect((await server.decide(pending.id, { option: 'approve' })).status).toBe(200);
    const result = await resolving;

    expect(ran).toEqual(['delete build/']);
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toContain('deleted build/');
    expect(decisions).toMatchObject([{ outcome: 'approved', gateId: pending.id }]);
    const gate = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${pending.id}`);
    expect(gate.body.consumedAt).not.toBeNull();
  });

  it('does not run a rejected call and gives the model the reviewer reason', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel('delete_file', { path: 'build/' });
    const agent = fileAgent(model, ran);
    const paused = await run(agent, 'clean the build folder');
    const resolving = resolveInterruptions(paused, gatehouse, { agent });
    await server.decide((await server.pendingGate()).id, {
      option: 'reject',
      reason: 'the build is still needed',
    });
    const result = await resolving;

    expect(ran).toEqual([]);
    expect(result.finalOutput).toContain('Gatehouse denied the call to delete_file');
    expect(result.finalOutput).toContain('the build is still needed');
    expect(JSON.stringify(model.inputs.at(-1))).toContain('function_call_result');
  });

  it('gives the model steer instructions as quoted data instead of running the call', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel('delete_file', { path: 'build/' });
    const agent = fileAgent(model, ran);
    const paused = await run(agent, 'clean the build folder');
    const resolving = resolveInterruptions(paused, gatehouse, { agent });
    await server.decide((await server.pendingGate()).id, {
      option: 'steer',
      instructions: 'only remove build/tmp',
    });
    const result = await resolving;

    expect(ran).toEqual([]);
    expect(result.finalOutput).toContain('A reviewer steered the call to delete_file');
    expect(result.finalOutput).toContain('only remove build/tmp');
  });

  it('runs a call the policy allows without an interruption or a gate', async () => {
    const ran: string[] = [];
    const gateIds: string[] = [];
    const agent = fileAgent(new ScriptedModel('read_file', { path: 'README.md' }), ran, (id) =>
      gateIds.push(id),
    );
    const result = await run(agent, 'read the readme');
    expect(result.interruptions).toEqual([]);
    expect(ran).toEqual(['read README.md']);
    expect(result.finalOutput).toContain('contents of README.md');
    expect(gateIds).toEqual([]);
    expect(await resolveInterruptions(result, gatehouse, { agent })).toBe(result);
  });

  it('applies the decision to a run restored from its serialized state, on the same gate', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel('delete_file', { path: 'build/' });
    const saved = (await run(fileAgent(model, ran), 'clean the build folder')).state.toString();
    const pending = await server.pendingGate();

    // A new process: the tools and their needsApproval are made again, the state comes from storage.
    const agent = fileAgent(model, ran);
    const state = await RunState.fromString(agent, saved);
    const resolving = resolveInterruptions(state, gatehouse, { agent });
    await server.decide(pending.id, { option: 'approve' });
    const result = await resolving;

    expect(ran).toEqual(['delete build/']);
    expect(result.finalOutput).toContain('deleted build/');
    const gates = await server.call(server.test.tokens.developer, 'GET', `/v1/gates?runId=${runId}`);
    expect(gates.body.items).toHaveLength(1);
  });
});
