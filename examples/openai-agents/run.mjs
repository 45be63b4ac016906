#!/usr/bin/env node
import { Agent, run, setTracingDisabled, tool, Usage } from '@openai/agents';
// An OpenAI Agents SDK 0.20 agent whose tools ask Gatehouse first, driven by a scripted Model (no API key).
import { Gatehouse } from 'gatehouse-hitl-sdk';
import { gatehouseTool, resolveInterruptions } from 'gatehouse-hitl-sdk/openai-agents';
import { z } from 'zod';
import { describeDecision, readOptions, runMain, say, sayWaiting } from '../shared/cli.mjs';

const HELP = `Usage: node examples/openai-agents/run.mjs [--url URL] [--token TOKEN] [--path PATH]

An OpenAI Agents SDK 0.20 agent (a scripted Model instead of an LLM) reads README.md, which the
policy allows at once, then asks to delete PATH: the tool's needsApproval (set by gatehouseTool)
opens a gate, the run stops with an interruption, and resolveInterruptions approves or rejects
it with the Gatehouse decision and resumes the run; a person's edited arguments run in place of
the model's.`;

/** What the model was told about each tool call so far. */
function toolResults(input) {
  if (typeof input === 'string') return [];
  return input
    .filter((item) => item.type === 'function_call_result')
    .map(
      (item) =>
        `${item.name} → ${item.output.type === 'text' ? item.output.text : JSON.stringify(item.output)}`,
    );
}

/** A Model that makes the scripted tool calls one per turn, then reports what it saw. */
function scriptedModel(calls) {
  return {
    async getResponse({ input }) {
      const seen = toolResults(input);
      const next = calls[seen.length];
      if (next !== undefined) {
        const call = {
          type: 'function_call',
          callId: `call_${seen.length + 1}`,
          name: next.tool,
          arguments: JSON.stringify(next.input),
          status: 'completed',
        };
        return { usage: new Usage(), output: [call] };
      }
      const content = [{ type: 'output_text', text: `Done. ${seen.join('; ')}` }];
      return {
        usage: new Usage(),
        output: [{ type: 'message', role: 'assistant', status: 'completed', content }],
      };
    },
    // biome-ignore lint/correctness/useYield: this scripted model never streams
    async *getStreamedResponse() {
      throw new Error('the scripted model does not stream');
    },
  };
}

async function main() {
  const { url, token, path } = readOptions(HELP);
  setTracingDisabled(true);
  const gatehouse = new Gatehouse({ url, token });
  const gatehouseRun = await gatehouse.createRun({
    autonomy: 'full',
    title: `OpenAI Agents example: clean up ${path}`,
  });
  say(`run ${gatehouseRun.id} started`);

  // gatehouseTool sets needsApproval and runs a person's edit: 0.20 refuses a call changed after approval.
  const behindGatehouse = (functionTool) =>
    gatehouseTool(gatehouse, functionTool, { request: { runId: gatehouseRun.id }, onGate: sayWaiting });
  const readFile = behindGatehouse(
    tool({
      name: 'read_file',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: async (input) => `# ${input.path} (example contents)`,
    }),
  );
  const deleteFile = behindGatehouse(
    tool({
      name: 'delete_file',
      description: 'Delete a file or folder',
      parameters: z.object({ path: z.string() }),
      // An example: nothing is really removed.
      execute: async (input) => `deleted ${input.path}`,
    }),
  );
  const model = scriptedModel([
    { tool: 'read_file', input: { path: 'README.md' } },
    { tool: 'delete_file', input: { path } },
  ]);
  const agent = new Agent({
    name: 'cleaner',
    instructions: 'Keep the repository tidy.',
    model,
    tools: [readFile, deleteFile],
  });

  const paused = await run(agent, `Read the README, then clean up ${path}.`);
  const result = await resolveInterruptions(paused, gatehouse, {
    agent,
    onDecision: (decision, toolName) => {
      say(describeDecision(toolName, decision));
      if (decision.edited)
        say(`${toolName}: runs with the edited arguments ${JSON.stringify(decision.args)}`);
    },
  });
  say(`model: ${result.finalOutput}`);
  await gatehouse.completeRun(gatehouseRun.id);
  say(`run ${gatehouseRun.id} completed`);
}

runMain(main);
