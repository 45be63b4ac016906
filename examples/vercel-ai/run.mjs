#!/usr/bin/env node
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
// A Vercel AI SDK 7 agent whose tools ask Gatehouse first, driven by the SDK's mock model (no API key).
import { Gatehouse } from 'gatehouse-hitl-sdk';
import { answerApprovals, gatehouseToolApproval, gatehouseTools } from 'gatehouse-hitl-sdk/ai';
import { z } from 'zod';
import { describeDecision, readOptions, runMain, say, sayWaiting } from '../shared/cli.mjs';

const HELP = `Usage: node examples/vercel-ai/run.mjs [--url URL] [--token TOKEN] [--path PATH]

A Vercel AI SDK 7 agent (generateText with a scripted mock model) reads README.md, which the
policy allows at once, then asks to delete PATH: toolApproval, answered by Gatehouse, stops the
step on a gate, a person decides it in Gatehouse (approve, approve with an edited path, reject
or steer), and the agent goes on with the decision.`;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** What the model was told about each tool call so far: its output, or why it did not run. */
function toolResults(prompt) {
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .filter((part) => part.type === 'tool-result')
    .map(
      ({ toolName, output }) =>
        `${toolName} → ${output.type === 'execution-denied' ? output.reason : JSON.stringify(output.value)}`,
    );
}

/** A model that makes the scripted tool calls one per step, then reports what it saw. */
function scriptedModel(calls) {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const seen = toolResults(prompt);
      const next = calls[seen.length];
      if (next !== undefined) {
        const call = {
          type: 'tool-call',
          toolCallId: `call-${seen.length + 1}`,
          toolName: next.tool,
          input: JSON.stringify(next.input),
        };
        return {
          content: [call],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      const text = `Done. ${seen.join('; ')}`;
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

async function main() {
  const { url, token, path } = readOptions(HELP);
  const gatehouse = new Gatehouse({ url, token });
  const run = await gatehouse.createRun({
    autonomy: 'full',
    title: `Vercel AI SDK example: clean up ${path}`,
  });
  say(`run ${run.id} started`);

  const tools = gatehouseTools(
    gatehouse,
    {
      read_file: tool({
        description: 'Read a file',
        inputSchema: z.object({ path: z.string() }),
        execute: async (input) => `# ${input.path} (example contents)`,
      }),
      delete_file: tool({
        description: 'Delete a file or folder',
        inputSchema: z.object({ path: z.string() }),
        // An example: nothing is really removed.
        execute: async (input) => `deleted ${input.path}`,
      }),
    },
    { request: { runId: run.id }, onGate: sayWaiting },
  );
  const model = scriptedModel([
    { tool: 'read_file', input: { path: 'README.md' } },
    { tool: 'delete_file', input: { path } },
  ]);

  // AI SDK 7 asks toolApproval about every call; Gatehouse's answer (policy or person) is the one that counts.
  const toolApproval = gatehouseToolApproval(gatehouse);

  const messages = [{ role: 'user', content: `Read the README, then clean up ${path}.` }];
  for (;;) {
    const step = await generateText({ model, tools, toolApproval, messages, stopWhen: stepCountIs(10) });
    messages.push(...step.responseMessages);
    for (const part of step.content.filter(({ type }) => type === 'tool-approval-request')) {
      say(`${part.toolCall.toolName}: the AI SDK asks for approval (${part.reason ?? 'no reason given'})`);
    }
    const { message, answers } = await answerApprovals(gatehouse, step, tools);
    if (message === null) {
      say(`model: ${step.text}`);
      break;
    }
    for (const { toolName, decision } of answers) {
      say(describeDecision(toolName, decision));
      if (decision.edited)
        say(`${toolName}: runs with the edited arguments ${JSON.stringify(decision.args)}`);
    }
    messages.push(message);
  }
  await gatehouse.completeRun(run.id);
  say(`run ${run.id} completed`);
}

runMain(main);
