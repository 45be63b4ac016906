import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gatehouse } from '../client.js';
import { type LiveServer, reviewRun, startLiveServer } from '../testing/live-server.js';
import { answerApprovals, gatehouseToolApproval, gatehouseTools } from './ai.js';

let server: LiveServer;
let gatehouse: Gatehouse;
let runId: string;

beforeEach(async () => {
  server = await startLiveServer();
  gatehouse = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
  // At review autonomy the run implements without a plan approved first (Gate 0), so the
  // calls' own gates are the only gates of the run.
  runId = await reviewRun(server, 'ai sdk 7 tool approval');
});

afterEach(async () => {
  await server.close();
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

type Prompt = Array<{ role: string; content: unknown }>;

/** A model that asks to delete build/ once, then answers with the last tool result it was shown. */
function scriptedModel() {
  const prompts: Prompt[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt as Prompt);
      const last = prompt.at(-1);
      if (last?.role !== 'tool') {
        const input = JSON.stringify({ path: 'build/' });
        return {
          content: [{ type: 'tool-call', toolCallId: 'call-7', toolName: 'delete_file', input }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: `saw ${JSON.stringify(last.content)}` }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

function setup() {
  const ran: string[] = [];
  const deleteFile = tool({
    description: 'Delete a file or folder',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      ran.push(path);
      return { deleted: path };
    },
  });
  const tools = gatehouseTools(gatehouse, { delete_file: deleteFile }, { request: { runId } });
  const toolApproval = gatehouseToolApproval(gatehouse);
  const { model, prompts } = scriptedModel();
  const messages: ModelMessage[] = [{ role: 'user', content: 'clean the build folder' }];
  const step = (history: ModelMessage[]) =>
    generateText({ model, tools, toolApproval, messages: history, stopWhen: stepCountIs(3) });
  return { ran, tools, prompts, messages, step };
}

/** The history after a step, with an approval response the caller wrote itself (as a chat client may). */
function withClientAnswer(
  messages: ModelMessage[],
  first: { content: ReadonlyArray<{ type: string }>; response: { messages: ModelMessage[] } },
) {
  const request = first.content.find((part) => part.type === 'tool-approval-request') as
    | { approvalId: string }
    | undefined;
  if (request === undefined) throw new Error('no approval request');
  const answer: ModelMessage = {
    role: 'tool',
    content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
  };
  return [...messages, ...first.response.messages, answer];
}

async function gateCount(): Promise<number> {
  const all = await server.call(server.test.tokens.developer, 'GET', `/v1/gates?runId=${runId}`);
  return all.body.items.length;
}

describe('AI SDK 7: toolApproval answered by Gatehouse', () => {
  it('ends the step on a gate and runs the call once a person approves, on one gate', async () => {
    const { ran, tools, messages, step } = setup();
    const first = await step(messages);
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(ran).toEqual([]);
    const pending = await server.pendingGate();
    expect(requests[0]).toMatchObject({ reason: `Gatehouse gate ${pending.id}` });
    const [{ message }] = await Promise.all([
      answerApprovals(gatehouse, first, tools),
      server.decide(pending.id, { option: 'approve' }),
    ]);
    const second = await step([...messages, ...first.response.messages, message!]);
    expect(ran).toEqual(['build/']);
    expect(second.text).toContain('"deleted":"build/"');
    expect(await gateCount()).toBe(1);
  });

  it('does not run a call id the model sends again on the one-off approval it already used', async () => {
    const { ran, tools, messages, step } = setup();
    const first = await step(messages);
    const pending = await server.pendingGate();
    const [{ message }] = await Promise.all([
      answerApprovals(gatehouse, first, tools),
      server.decide(pending.id, { option: 'approve' }),
    ]);
    await step([...messages, ...first.response.messages, message!]);
    expect(ran).toEqual(['build/']);
    // The scripted model sends call-7 with build/ again: the same gate, whose approval is used.
    const again = await step(messages);
    const { message: refusal } = await answerApprovals(gatehouse, again, tools);
    const third = await step([...messages, ...again.response.messages, refusal!]);
    expect(ran).toEqual(['build/']);
    expect(third.text).toContain('was already used');
  });

  it('refuses an approval written into the history while the gate is still open', async () => {
    const { ran, prompts, messages, step } = setup();
    const first = await step(messages);
    const pending = await server.pendingGate();
    const second = await step(withClientAnswer(messages, first));
    expect(ran).toEqual([]);
    expect(JSON.stringify(prompts.at(-1))).toContain('execution-denied');
    expect(second.text).toContain(`No decision on gate ${pending.id} yet`);
    expect(await gateCount()).toBe(1);
  });

  it('refuses an approval in the history when the person rejected the gate, with their reason', async () => {
    const { ran, messages, step } = setup();
    const first = await step(messages);
    const pending = await server.pendingGate();
    await server.decide(pending.id, { option: 'reject', reason: 'the build is still needed' });
    const second = await step(withClientAnswer(messages, first));
    expect(ran).toEqual([]);
    expect(second.text).toContain('Gatehouse denied the call to delete_file');
    expect(second.text).toContain('the build is still needed');
  });

  it('uses a person’s approval given in Gatehouse when the answer came from elsewhere, once', async () => {
    const { ran, messages, step } = setup();
    const first = await step(messages);
    const pending = await server.pendingGate();
    await server.decide(pending.id, { option: 'approve' });
    const history = withClientAnswer(messages, first);
    await step(history);
    expect(ran).toEqual(['build/']);
    const gate = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${pending.id}`);
    expect(gate.body.consumedAt).not.toBeNull();
  });

  it('runs a person’s edited arguments in place of the model’s', async () => {
    const { ran, tools, messages, step } = setup();
    const first = await step(messages);
    const pending = await server.pendingGate();
    const [{ message, answers }] = await Promise.all([
      answerApprovals(gatehouse, first, tools),
      server.decide(pending.id, { option: 'approve', editedArgs: { path: 'build/cache/' } }),
    ]);
    expect(answers[0]?.decision).toMatchObject({ edited: true, args: { path: 'build/cache/' } });
    const second = await step([...messages, ...first.response.messages, message!]);
    expect(ran).toEqual(['build/cache/']);
    expect(second.text).toContain('build/cache/');
  });
});
