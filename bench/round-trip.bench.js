// Human round trip: an agent's gate is created, decided by another client and the waiting agent resumes,
// over HTTP against a Gatehouse node in a child process, vs. the same flow in-process with LangGraph.js
// interrupt() + Command({ resume }) and its SQLite checkpointer. Sequential and 50 at once, each side
// measured at steady state: 2,000 trips first, so both have compiled their hot code (a server runs warm;
// after 100 trips the figures still drifted by a third within one run). The checkpointer's default runs
// WAL at synchronous=NORMAL, so its commits are not fsync'd; Gatehouse's are (synchronous=FULL). The
// targets are set against that default; LangGraph is measured at FULL as well, the same durability class.
// The floor is the same three HTTP exchanges and two fsync'd commits with none of Gatehouse's work
// (lib/trip-floor-node.js): what any server holding the design's durability over HTTP could reach.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './lib/child.js';
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

/** One trip over HTTP: open a gate as agent `worker`, wait on it, decide it as the reviewer. */
function httpTrip(tokens, agentClient, reviewerClient) {
  return async (worker, i) => {
    const agent = tokens.agents[worker].token;
    const gateId = await openGate(agentClient, agent, i);
    const wait = startRequest(agentClient, waitCall(agent, gateId));
    await wait.sent;
    await sendOk(reviewerClient, decideCall(tokens.developer, gateId));
    const { status, body } = await wait.answered;
    if (status !== 200 || body.outcome !== 'approved')
      throw new Error(`wait answered ${status} ${JSON.stringify(body)}`);
  };
}

/** Warm-up, then the sequential and (unless `sequentialOnly`) the concurrent figures of trips to `url`. */
async function measureHttp(url, tokens, { sequentialOnly = false } = {}) {
  const agentClient = createHttpClient(url, { maxSockets: 2 * CONCURRENT });
  const reviewerClient = createHttpClient(url, { maxSockets: CONCURRENT });
  try {
    const trip = httpTrip(tokens, agentClient, reviewerClient);
    await measure(trip, { workers: CONCURRENT, count: WARMUP });
    const sequential = await measure(trip, { workers: 1, count: SEQUENTIAL });
    if (sequentialOnly) return { sequential };
    const concurrent = await measure(trip, { workers: CONCURRENT, count: CONCURRENT * PER_WORKER });
    return { sequential, concurrent };
  } finally {
    agentClient.close();
    reviewerClient.close();
  }
}

async function measureGatehouse() {
  const node = await startGatehouse({ dialect: 'sqlite', agents: CONCURRENT });
  try {
    return await measureHttp(node.url, node.tokens);
  } finally {
    await node.stop();
  }
}

async function measureFloor() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const child = startChild('./trip-floor-node.js', { dir });
  try {
    const { url, synchronous } = await child.ready;
    if (synchronous !== 2) throw new Error(`the floor runs at synchronous=${synchronous}, not FULL`);
    const agents = Array.from({ length: CONCURRENT }, (_, i) => ({ token: `agent-${i}` }));
    return await measureHttp(url, { agents, developer: 'reviewer' }, { sequentialOnly: true });
  } finally {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
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
  const floor = await measureFloor();
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
  // The best ratio to LangGraph's default that three HTTP exchanges and two fsync'd commits allow.
  report('server.round-trip.sqlite.sequential.floor', {
    value: floor.sequential.mean,
    unit: 'ms',
    baseline: langgraph.sequential.mean,
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
