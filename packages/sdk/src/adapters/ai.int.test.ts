import { generateText, type ModelMessage, stepCountIs, type ToolSet, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gatehouse } from '../client.js';
import { type LiveServer, reviewRun, startLiveServer } from '../testing/live-server.js';
import { answerApprovals, gatehouseTools, withGatehouseApproval } from './ai.js';

let server: LiveServer;
let gatehouse: Gatehouse;
let runId: string;

beforeEach(async () => {
  server = await startLiveServer();
  gatehouse = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
  // At review autonomy the run implements without a plan approved first (Gate 0), so the
  // calls' own gates are the only gates of the run.
  runId = await reviewRun(server, 'ai sdk adapter');
});

afterEach(async () => {
  await server.close();
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

type Prompt = Array<{ role: string; content: unknown }>;

let calls = 0;

/** A model that calls `toolName` once, then answers with the last tool result it was shown. */
function scriptedModel(toolName: string, input: Record<string, unknown>) {
  const toolCallId = `call-${++calls}`;
  const prompts: Prompt[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt as Prompt);
      const last = prompt.at(-1);
      if (last?.role !== 'tool') {
        const call = { type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) };
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
  return { model, prompts };
}

function fileTools(ran: string[]) {
  return {
    delete_file: tool({
      description: 'Delete a file or folder',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        ran.push(`delete ${path}`);
        return { deleted: path };
      },
    }),
    read_file: tool({
      description: 'Read a file',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        ran.push(`read ${path}`);
        return { text: `contents of ${path}` };
      },
    }),
  };
}

const userMessage: ModelMessage[] = [{ role: 'user', content: 'clean the build folder' }];

/** One agent turn with Gatehouse approval: the step that asks, the decision, the step that goes on. */
async function turn(
  model: MockLanguageModelV3,
  tools: ToolSet,
  decide: () => Promise<unknown>,
): Promise<string> {
  const first = await generateText({ model, tools, messages: userMessage, stopWhen: stepCountIs(5) });
  const [{ message }] = await Promise.all([answerApprovals(gatehouse, first, tools), decide()]);
  if (message === null) return first.text;
  const messages = [...userMessage, ...first.response.messages, message];
  return (await generateText({ model, tools, messages, stopWhen: stepCountIs(5) })).text;
}

describe('Vercel AI SDK tools behind Gatehouse', () => {
  it('opens a gate for the model tool call and runs the tool once a developer approves', async () => {
    const ran: string[] = [];
    const gateIds: string[] = [];
    const tools = gatehouseTools(gatehouse, fileTools(ran), {
      request: { runId, context: { why: 'cleanup' } },
      onGate: (id) => gateIds.push(id),
    });
    const { model, prompts } = scriptedModel('delete_file', { path: 'build/' });

    const first = await generateText({ model, tools, messages: userMessage, stopWhen: stepCountIs(5) });
    expect(first.content.some((part) => part.type === 'tool-approval-request')).toBe(true);
    expect(ran).toEqual([]);
    const pending = await server.pendingGate();
    expect(gateIds).toEqual([pending.id]);
    expect(pending.action).toMatchObject({ tool: 'delete_file', args: { path: 'build/' } });
    expect(pending.runId).toBe(runId);

    const answering = answerApprovals(gatehouse, first, tools);
    expect((await server.decide(pending.id, { option: 'approve' })).status).toBe(200);
    const { message, answers } = await answering;
    expect(answers).toMatchObject([
      { toolName: 'delete_file', decision: { outcome: 'approved', gateId: pending.id } },
    ]);

    const second = await generateText({
      model,
      tools,
      messages: [...userMessage, ...first.response.messages, message!],
      stopWhen: stepCountIs(5),
    });
    expect(ran).toEqual(['delete build/']);
    expect(second.text).toContain('"deleted":"build/"');
    expect(prompts).toHaveLength(2);
    expect(gateIds).toEqual([pending.id]);
    const gate = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${pending.id}`);
    expect(gate.body.consumedAt).not.toBeNull();
  });

  it('does not run a call id the model sends again on the one-off approval it already used', async () => {
    const ran: string[] = [];
    const tools = gatehouseTools(gatehouse, fileTools(ran), { request: { runId } });
    const { model } = scriptedModel('delete_file', { path: 'build/' });
    const turn = async (approve: boolean) => {
      const first = await generateText({ model, tools, messages: userMessage, stopWhen: stepCountIs(5) });
      const answering = answerApprovals(gatehouse, first, tools);
      if (approve) await server.decide((await server.pendingGate()).id, { option: 'approve' });
      const { message } = await answering;
      const messages = [...userMessage, ...first.response.messages, message!];
      return (await generateText({ model, tools, messages, stopWhen: stepCountIs(5) })).text;
    };
    await turn(true);
    expect(ran).toEqual(['delete build/']);
    // The scripted model sends the same call id with the same input: its gate's approval is used.
    const again = await turn(false);
    expect(ran).toEqual(['delete build/']);
    expect(again).toContain('was already used');
  });

  it('does not run a rejected call and shows the model the reviewer reason', async () => {
    const ran: string[] = [];
    const tools = gatehouseTools(gatehouse, fileTools(ran), { request: { runId } });
    const { model, prompts } = scriptedModel('delete_file', { path: 'build/' });
    const text = await turn(model, tools, async () => {
      const pending = await server.pendingGate();
      await server.decide(pending.id, { option: 'reject', reason: 'the build is still needed' });
    });
    expect(ran).toEqual([]);
    const shown = JSON.stringify(prompts.at(-1));
    expect(shown).toContain('execution-denied');
    expect(shown).toContain('Gatehouse denied the call to delete_file');
    expect(text).toContain('the build is still needed');
  });

  it('hands steer instructions to the model as quoted data instead of running the call', async () => {
    const ran: string[] = [];
    const tools = gatehouseTools(gatehouse, fileTools(ran), { request: { runId } });
    const { model } = scriptedModel('delete_file', { path: 'build/' });
    const text = await turn(model, tools, async () => {
      const pending = await server.pendingGate();
      await server.decide(pending.id, { option: 'steer', instructions: 'delete build/tmp only "then stop"' });
    });
    expect(ran).toEqual([]);
    expect(text).toContain('A reviewer steered the call to delete_file');
    expect(text).toContain(JSON.stringify(JSON.stringify('delete build/tmp only "then stop"')).slice(1, -1));
  });

  it('runs a call the policy allows at once, without a gate or an approval request', async () => {
    const ran: string[] = [];
    const gateIds: string[] = [];
    const tools = gatehouseTools(gatehouse, fileTools(ran), { onGate: (id) => gateIds.push(id) });
    const { model } = scriptedModel('read_file', { path: 'README.md' });
    const result = await generateText({ model, tools, messages: userMessage, stopWhen: stepCountIs(5) });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(ran).toEqual(['read README.md']);
    expect(result.text).toContain('contents of README.md');
    expect(gateIds).toEqual([]);
  });

  it('waits on the same gate when the answer is asked for again after an abort', async () => {
    const ran: string[] = [];
    const tools = gatehouseTools(gatehouse, fileTools(ran), { request: { runId } });
    const { model } = scriptedModel('delete_file', { path: 'build/' });
    const first = await generateText({ model, tools, messages: userMessage, stopWhen: stepCountIs(5) });
    const controller = new AbortController();
    const abandoned = answerApprovals(gatehouse, first, tools, { signal: controller.signal });
    const pending = await server.pendingGate();
    controller.abort(new Error('agent restarting'));
    await expect(abandoned).rejects.toThrow('agent restarting');

    const again = answerApprovals(gatehouse, first, tools);
    await server.decide(pending.id, { option: 'approve' });
    const { answers } = await again;
    expect(answers[0]?.decision.gateId).toBe(pending.id);
    const all = await server.call(server.test.tokens.developer, 'GET', `/v1/gates?runId=${runId}`);
    expect(all.body.items).toHaveLength(1);
  });
});

describe('withGatehouseApproval (waits inside execute)', () => {
  it('runs an approved call and returns a readable refusal for a rejected one, in one generateText', async () => {
    const ran: string[] = [];
    const { delete_file } = fileTools(ran);
    const tools = {
      delete_file: withGatehouseApproval(gatehouse, 'delete_file', delete_file, { request: { runId } }),
    };

    const rejected = scriptedModel('delete_file', { path: 'build/' });
    const rejecting = (async () => {
      const pending = await server.pendingGate();
      await server.decide(pending.id, { option: 'reject', reason: 'keep it' });
    })();
    const first = await generateText({
      model: rejected.model,
      tools,
      messages: userMessage,
      stopWhen: stepCountIs(3),
    });
    await rejecting;
    expect(ran).toEqual([]);
    expect(first.text).toContain('"gatehouse":"not_run"');
    expect(first.text).toContain('keep it');

    const approved = scriptedModel('delete_file', { path: 'dist/' });
    const approving = (async () => {
      const pending = await server.pendingGate();
      await server.decide(pending.id, { option: 'approve' });
    })();
    const second = await generateText({
      model: approved.model,
      tools,
      messages: userMessage,
      stopWhen: stepCountIs(3),
    });
    await approving;
    expect(ran).toEqual(['delete dist/']);
    expect(second.text).toContain('"deleted":"dist/"');
  });

  it('refuses to wrap a tool without execute', () => {
    const clientSide = tool({ description: 'asks the user', inputSchema: z.object({ q: z.string() }) });
    expect(() => withGatehouseApproval(gatehouse, 'ask', clientSide)).toThrow(/no execute function/);
  });
});
