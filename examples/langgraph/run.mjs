#!/usr/bin/env node
import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
// A LangGraph.js graph that asks Gatehouse before it acts: interrupt on the gate, resume on the decision.
import { Gatehouse } from 'gatehouse-hitl-sdk';
import {
  gatehouseApprovalNode,
  pendingGates,
  requestApproval,
  resumeWithDecision,
} from 'gatehouse-hitl-sdk/langgraph';
import { describeDecision, readOptions, runMain, say, sayWaiting } from '../shared/cli.mjs';

const HELP = `Usage: node examples/langgraph/run.mjs [--url URL] [--token TOKEN] [--path PATH]

A LangGraph.js graph (inspect → approve → act, with a MemorySaver checkpointer) reads README.md,
which the policy allows at once, then asks to delete PATH: the approve node opens a gate and
interrupts, resumeWithDecision waits for the person's decision and resumes the graph with it,
and the act node deletes PATH only when it was approved (the person's edited path when they
changed it).`;

const State = Annotation.Root({
  runId: Annotation(),
  path: Annotation(),
  approval: Annotation(),
  log: Annotation({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

function cleanupGraph(gatehouse) {
  return new StateGraph(State)
    .addNode('inspect', async (state) => {
      const read = await requestApproval(gatehouse, {
        tool: 'read_file',
        args: { path: 'README.md' },
        runId: state.runId,
      });
      return { log: [`inspect: read_file README.md ${read.outcome} by ${read.decidedBy}`] };
    })
    .addNode(
      'approve',
      gatehouseApprovalNode(gatehouse, {
        action: (state) => ({
          tool: 'delete_file',
          args: { path: state.path },
          runId: state.runId,
          title: `Delete ${state.path}`,
        }),
      }),
    )
    .addNode('act', (state) => {
      const { approval } = state;
      if (approval.outcome !== 'approved') {
        return { log: [`act: left ${state.path} alone (${describeDecision('delete_file', approval)})`] };
      }
      // A person's edit replaces the graph's proposal: run what was approved, never the proposal.
      const path = approval.edited ? String(approval.args?.path) : state.path;
      // An example: nothing is really removed.
      return { log: [`act: deleted ${path}`] };
    })
    .addEdge(START, 'inspect')
    .addEdge('inspect', 'approve')
    .addEdge('approve', 'act')
    .addEdge('act', END)
    .compile({ checkpointer: new MemorySaver() });
}

async function main() {
  const { url, token, path } = readOptions(HELP);
  const gatehouse = new Gatehouse({ url, token });
  const run = await gatehouse.createRun({ autonomy: 'full', title: `LangGraph example: clean up ${path}` });
  say(`run ${run.id} started`);

  const graph = cleanupGraph(gatehouse);
  const config = { configurable: { thread_id: `cleanup-${run.id}` } };
  let state = await graph.invoke({ runId: run.id, path }, config);
  for (
    let waiting = await pendingGates(graph, config);
    waiting.length > 0;
    waiting = await pendingGates(graph, config)
  ) {
    for (const { gateId } of waiting) sayWaiting(gateId, 'delete_file');
    state = await resumeWithDecision(graph, config, gatehouse);
    say(describeDecision('delete_file', state.approval));
    if (state.approval.edited) {
      say(`delete_file: runs with the edited arguments ${JSON.stringify(state.approval.args)}`);
    }
  }
  for (const line of state.log) say(line);
  await gatehouse.completeRun(run.id);
  say(`run ${run.id} completed`);
}

runMain(main);
