// Human round trip: an agent's gate is created, decided by another client and the waiting agent resumes,
// over HTTP against a Gatehouse node in a child process, vs. the same flow in-process with LangGraph.js
// interrupt() + Command({ resume }) and its SQLite checkpointer. Sequential and 50 at once, each side
// measured at steady state: 2,000 trips first, so both have compiled their hot code (a server runs warm;
// after 100 trips the figures still drifted by a third within one run). The checkpointer's default runs
// WAL at synchronous=NORMAL, so its commits are not fsync'd; Gatehouse's are (synchronous=FULL). The
// targets are set against that default; LangGraph is measured at FULL as well, the same durability class.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideCall, openGate, startGatehouse, waitCall } from './lib/gatehouse.js';
import { createHttpClient, sendOk, startRequest } from './lib/http.js';
import { createApprovalGraph, roundTrip } from './lib/langgraph-flow.js';
import { msSince, summarize } from './lib/stats.js';
import { report } from './report.js';

const WARMUP = 2_000;
const SEQUENTIAL = 1_000;
const CONCURRENT = 50;
const PER_WORKER = 40;

/** Runs `trip(worker, i)` sequentially (one worker) or from `workers` at once; returns latencies and trips/s. */
async function measure(trip, { workers, count }) {
  const latencies = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (next < count) {
        const i = next++;
        const t0 = process.hrtime.bigint();
        await trip(worker, i);
        latencies.push(msSince(t0));
      }
    }),
  );
  return { ...summarize(latencies), perSecond: count / (msSince(started) / 1000) };
}

function gatehouseTrip(node, agentClient, reviewerClient) {
  return async (worker, i) => {
    const agent = node.tokens.agents[worker].token;
    const gateId = await openGate(agentClient, agent, i);
    const wait = startRequest(agentClient, waitCall(agent, gateId));
    await wait.sent;
    await sendOk(reviewerClient, decideCall(node.tokens.developer, gateId));
    const { status, body } = await wait.answered;
    if (status !== 200 || body.outcome !== 'approved')
      throw new Error(`wait answered ${status} ${JSON.stringify(body)}`);
  };
}

async function measureGatehouse() {
  const node = await startGatehouse({ dialect: 'sqlite', agents: CONCURRENT });
  const agentClient = createHttpClient(node.url, { maxSockets: 2 * CONCURRENT });
  const reviewerClient = createHttpClient(node.url, { maxSockets: CONCURRENT });
  try {
    const trip = gatehouseTrip(node, agentClient, reviewerClient);
    await measure(trip, { workers: CONCURRENT, count: WARMUP });
    const sequential = await measure(trip, { workers: 1, count: SEQUENTIAL });
    const concurrent = await measure(trip, { workers: CONCURRENT, count: CONCURRENT * PER_WORKER });
    return { sequential, concurrent };
  } finally {
    agentClient.close();
    reviewerClient.close();
    await node.stop();
  }
}

async function measureLangGraph(options) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const { graph, checkpointer } = createApprovalGraph(dir, options);
  try {
    let thread = 0;
    const trip = (_worker, i) => roundTrip(graph, `thread-${thread++}`, i);
    await measure(trip, { workers: CONCURRENT, count: WARMUP });
    const level = checkpointer.db.pragma('synchronous', { simple: true });
    const expected = options?.synchronous === 'FULL' ? 2 : 1;
    if (level !== expected)
      throw new Error(`LangGraph's checkpointer runs at synchronous=${level}, not ${expected}`);
    const sequential = await measure(trip, { workers: 1, count: SEQUENTIAL });
    const concurrent = await measure(trip, { workers: CONCURRENT, count: CONCURRENT * PER_WORKER });
    return { sequential, concurrent };
  } finally {
    checkpointer.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Mean time per round trip one after another, and round trips per second with 50 in flight, against
 * LangGraph's default checkpointer (the targets) and against it at synchronous=FULL.
 */
export async function run() {
  const langgraph = await measureLangGraph();
  const gatehouse = await measureGatehouse();
  const durable = await measureLangGraph({ synchronous: 'FULL' });
  report('server.round-trip.sqlite.sequential.mean', {
    value: gatehouse.sequential.mean,
    unit: 'ms',
    baseline: langgraph.sequential.mean,
    targetRatio: 1.5,
  });
  report('server.round-trip.sqlite.sequential.p99', {
    value: gatehouse.sequential.p99,
    unit: 'ms',
    baseline: langgraph.sequential.p99,
  });
  report('server.round-trip.sqlite.concurrent-50', {
    value: gatehouse.concurrent.perSecond,
    unit: 'trips/s',
    baseline: langgraph.concurrent.perSecond,
    higherIsBetter: true,
    targetRatio: 2,
  });
  report('server.round-trip.sqlite.sequential.mean.vs-full', {
    value: gatehouse.sequential.mean,
    unit: 'ms',
    baseline: durable.sequential.mean,
  });
  report('server.round-trip.sqlite.concurrent-50.vs-full', {
    value: gatehouse.concurrent.perSecond,
    unit: 'trips/s',
    baseline: durable.concurrent.perSecond,
    higherIsBetter: true,
  });
}
