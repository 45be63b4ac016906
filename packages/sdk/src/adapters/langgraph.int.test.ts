import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Annotation,
  type BaseCheckpointSaver,
  Command,
  END,
  MemorySaver,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gatehouse } from '../client.js';
import { type LiveServer, reviewRun, startLiveServer } from '../testing/live-server.js';
import type { GatehouseDecision } from './decision.js';
import { gatehouseApprovalNode, pendingGates, requestApproval, resumeWithDecision } from './langgraph.js';

let server: LiveServer;
let gatehouse: Gatehouse;
let runId: string;
let threads = 0;

beforeEach(async () => {
  server = await startLiveServer();
  gatehouse = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
  // At review autonomy the run implements without a plan approved first (Gate 0), so the
  // calls' own gates are the only gates of the run.
  runId = await reviewRun(server, 'langgraph adapter');
});

afterEach(async () => {
  await server.close();
});

const State = Annotation.Root({
  tool: Annotation<string>(),
  path: Annotation<string>(),
  approval: Annotation<GatehouseDecision>(),
  log: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

/** plan → approve (Gatehouse) → act: the act node only runs the action when the approval says so. */
function cleanupGraph(checkpointer: BaseCheckpointSaver, ran: string[]) {
  return new StateGraph(State)
    .addNode(
      'approve',
      gatehouseApprovalNode(gatehouse, {
        action: (state: typeof State.State) => ({ tool: state.tool, args: { path: state.path }, runId }),
      }),
    )
    .addNode('act', (state: typeof State.State) => {
      const { outcome, reason, instructions } = state.approval;
      if (outcome !== 'approved')
        return { log: [`skipped ${state.path}: ${outcome} ${reason ?? instructions ?? ''}`] };
      ran.push(`${state.tool} ${state.path}`);
      return { log: [`did ${state.tool} ${state.path}`] };
    })
    .addEdge(START, 'approve')
    .addEdge('approve', 'act')
    .addEdge('act', END)
    .compile({ checkpointer });
}

/** The result of an invoke that stopped at an interrupt. */
type Interrupted = { __interrupt__?: Array<{ id?: string; value?: unknown }> };

const newThread = () => ({ configurable: { thread_id: `thread-${++threads}` } });

describe('LangGraph.js nodes behind Gatehouse', () => {
  it('interrupts with the gate, resumes on the decision, and the next node sees the approval', async () => {
    const ran: string[] = [];
    const graph = cleanupGraph(new MemorySaver(), ran);
    const config = newThread();

    const paused = await graph.invoke({ tool: 'delete_file', path: 'build/' }, config);
    const pending = await server.pendingGate();
    expect((paused as Interrupted).__interrupt__?.[0]?.value).toMatchObject({
      gatehouse: 'approval',
      gateId: pending.id,
    });
    expect(pending).toMatchObject({ runId, action: { tool: 'delete_file', args: { path: 'build/' } } });
    expect(await pendingGates(graph, config)).toEqual([
      { interruptId: expect.any(String), gateId: pending.id },
    ]);
    expect(ran).toEqual([]);

    const resuming = resumeWithDecision(graph, config, gatehouse);
    expect((await server.decide(pending.id, { option: 'approve' })).status).toBe(200);
    const done = await resuming;

    expect(done.approval).toMatchObject({
      outcome: 'approved',
      gateId: pending.id,
      decidedBy: server.test.ids.developerId,
    });
    expect(done.log).toEqual(['did delete_file build/']);
    expect(ran).toEqual(['delete_file build/']);
    const gate = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${pending.id}`);
    expect(gate.body.consumedAt).not.toBeNull();
    const gates = await server.call(server.test.tokens.developer, 'GET', `/v1/gates?runId=${runId}`);
    expect(gates.body.items).toHaveLength(1);
  });

  it('passes a rejection with its reason to the next node, which does not act', async () => {
    const ran: string[] = [];
    const graph = cleanupGraph(new MemorySaver(), ran);
    const config = newThread();
    await graph.invoke({ tool: 'delete_file', path: 'build/' }, config);
    const pending = await server.pendingGate();
    const resuming = resumeWithDecision(graph, config, gatehouse, pending.id);
    await server.decide(pending.id, { option: 'reject', reason: 'the build is still needed' });
    const done = await resuming;

    expect(done.approval).toMatchObject({ outcome: 'denied', reason: 'the build is still needed' });
    expect(done.log).toEqual(['skipped build/: denied the build is still needed']);
    expect(ran).toEqual([]);
  });

  it('goes straight on when the policy allows the action', async () => {
    const ran: string[] = [];
    const graph = cleanupGraph(new MemorySaver(), ran);
    const done = await graph.invoke({ tool: 'read_file', path: 'README.md' }, newThread());
    expect((done as Interrupted).__interrupt__).toBeUndefined();
    expect(done.approval).toMatchObject({ outcome: 'approved', decidedBy: 'policy', gateId: null });
    expect(ran).toEqual(['read_file README.md']);
  });

  it('reads the decision from the server, not from the value the graph is resumed with', async () => {
    const ran: string[] = [];
    const graph = cleanupGraph(new MemorySaver(), ran);
    const config = newThread();
    await graph.invoke({ tool: 'delete_file', path: 'build/' }, config);
    const pending = await server.pendingGate();
    const forged = graph.invoke(new Command({ resume: { outcome: 'approved', gateId: pending.id } }), config);
    await server.decide(pending.id, { option: 'reject', reason: 'no' });
    const done = await forged;
    expect(done.approval).toMatchObject({ outcome: 'denied', reason: 'no' });
    expect(ran).toEqual([]);
  });

  it('resumes a graph compiled again on the same SQLite checkpoint, on the same gate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-langgraph-'));
    const file = join(dir, 'checkpoints.db');
    const ran: string[] = [];
    const config = newThread();
    try {
      const before = SqliteSaver.fromConnString(file);
      await cleanupGraph(before, ran).invoke({ tool: 'delete_file', path: 'build/' }, config);
      const pending = await server.pendingGate();

      const after = SqliteSaver.fromConnString(file);
      const resuming = resumeWithDecision(cleanupGraph(after, ran), config, gatehouse);
      await server.decide(pending.id, { option: 'approve' });
      const done = await resuming;

      expect(done.log).toEqual(['did delete_file build/']);
      const gates = await server.call(server.test.tokens.developer, 'GET', `/v1/gates?runId=${runId}`);
      expect(gates.body.items).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to resume a graph that waits on no gate, and to ask outside a node without a key', async () => {
    const graph = cleanupGraph(new MemorySaver(), []);
    const config = newThread();
    await graph.invoke({ tool: 'read_file', path: 'README.md' }, config);
    await expect(resumeWithDecision(graph, config, gatehouse)).rejects.toThrow(
      /not waiting on a Gatehouse gate/,
    );
    await expect(requestApproval(gatehouse, { tool: 'delete_file', args: { path: 'x' } })).rejects.toThrow(
      /idempotencyKey/,
    );
  });
});
