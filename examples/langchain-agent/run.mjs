#!/usr/bin/env node
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
// A LangChain v1 createAgent agent whose human-in-the-loop interrupts are answered by Gatehouse.
import { Gatehouse } from 'gatehouse-hitl-sdk';
import { resumeWithGatehouse } from 'gatehouse-hitl-sdk/langchain';
import { createAgent, humanInTheLoopMiddleware, tool } from 'langchain';
import { z } from 'zod';
import { describeDecision, readOptions, runMain, say, sayWaiting } from '../shared/cli.mjs';

const HELP = `Usage: node examples/langchain-agent/run.mjs [--url URL] [--token TOKEN] [--path PATH]

A LangChain v1 agent (createAgent with humanInTheLoopMiddleware, a MemorySaver checkpointer and
a scripted chat model instead of an LLM) reads README.md, then asks to delete PATH. Every tool
call the middleware interrupts on is answered by Gatehouse through resumeWithGatehouse: the read
is allowed by the policy at once; the delete waits for a person, whose approval becomes an
approve decision, an approval with edited arguments an edit decision, and anything else a reject
with the reason or steer instructions.`;

/** A chat model that makes the scripted tool calls one per turn, then reports what it was told. */
class ScriptedChatModel extends BaseChatModel {
  constructor(calls) {
    super({});
    this.calls = calls;
  }

  _llmType() {
    return 'scripted';
  }

  bindTools() {
    return this;
  }

  async _generate(messages) {
    const seen = messages.filter((message) => ToolMessage.isInstance(message));
    const next = this.calls[seen.length];
    const message =
      next === undefined
        ? new AIMessage(`Done. ${seen.map((result) => `${result.name} → ${result.content}`).join('; ')}`)
        : new AIMessage({
            content: '',
            tool_calls: [
              { id: `call_${seen.length + 1}`, name: next.tool, args: next.input, type: 'tool_call' },
            ],
          });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** The agent as it would be without Gatehouse: the middleware's interruptOn stays as it was. */
function cleaningAgent(path) {
  const readFile = tool(async (input) => `# ${input.path} (example contents)`, {
    name: 'read_file',
    description: 'Read a file',
    schema: z.object({ path: z.string() }),
  });
  // An example: nothing is really removed.
  const deleteFile = tool(async (input) => `deleted ${input.path}`, {
    name: 'delete_file',
    description: 'Delete a file or folder',
    schema: z.object({ path: z.string() }),
  });
  return createAgent({
    model: new ScriptedChatModel([
      { tool: 'read_file', input: { path: 'README.md' } },
      { tool: 'delete_file', input: { path } },
    ]),
    tools: [readFile, deleteFile],
    middleware: [
      humanInTheLoopMiddleware({
        interruptOn: {
          read_file: { allowedDecisions: ['approve', 'reject'] },
          delete_file: { allowedDecisions: ['approve', 'edit', 'reject'] },
        },
      }),
    ],
    checkpointer: new MemorySaver(),
  });
}

async function main() {
  const { url, token, path } = readOptions(HELP);
  const gatehouse = new Gatehouse({ url, token });
  const run = await gatehouse.createRun({ autonomy: 'full', title: `LangChain example: clean up ${path}` });
  say(`run ${run.id} started`);

  const agent = cleaningAgent(path);
  const threadId = `cleanup-${run.id}`;
  const config = { configurable: { thread_id: threadId } };
  let state = await agent.invoke(
    { messages: [{ role: 'user', content: `Read the README, then clean up ${path}.` }] },
    config,
  );
  while (state.__interrupt__ !== undefined && state.__interrupt__.length > 0) {
    state = await resumeWithGatehouse(agent, config, gatehouse, {
      threadId,
      request: { runId: run.id },
      onGate: (gateId, toolName) => sayWaiting(gateId, toolName),
      onDecision: (decision, toolName) => {
        say(describeDecision(toolName, decision));
        if (decision.edited)
          say(`${toolName}: runs with the edited arguments ${JSON.stringify(decision.args)}`);
      },
    });
  }
  say(`model: ${state.messages.at(-1)?.content}`);
  await gatehouse.completeRun(run.id);
  say(`run ${run.id} completed`);
}

runMain(main);
