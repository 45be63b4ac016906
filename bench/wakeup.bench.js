// Wake-up latency: a reviewer sends a decision → the blocked agent has it, for an agent on the long-poll
// wait and for one on its run's event stream, vs. a bare node:http Server-Sent-Events server pushing one
// event to a connected client. Each sample starts when the decision (or the push) is sent. Each side is
// measured warm (500 samples first: after 30, the gate path still ran partly unoptimised code) and over
// 1,000 samples, so that a p99 is the tenth-slowest sample rather than the third.
import { startChild } from './lib/child.js';
import {
  approvePlan,
  bearer,
  decideCall,
  openGate,
  startGatehouse,
  untilWaiting,
  waitCall,
} from './lib/gatehouse.js';
import { createHttpClient, sendOk, startRequest } from './lib/http.js';
import { openEventStream } from './lib/sse-client.js';
import { msSince, summarize } from './lib/stats.js';
import { report } from './report.js';

const WARMUP = 500;
const SAMPLES = 1_000;

/** An event stream whose events resolve the promise `next(match)` returned, timed at their arrival. */
async function followStream(url, options) {
  let waiting = null;
  const stream = await openEventStream(url, {
    ...options,
    onEvent(event, arrivedAt) {
      if (waiting?.match(event)) {
        waiting.resolve(arrivedAt);
        waiting = null;
      }
    },
  });
  const next = (match) =>
    new Promise((resolve) => {
      waiting = { match, resolve };
    });
  return { ...stream, next };
}

async function sample(count, once) {
  const latencies = [];
  for (let i = 0; i < WARMUP + count; i++) {
    const latency = await once(i);
    if (i >= WARMUP) latencies.push(latency);
  }
  return summarize(latencies);
}

async function measureBareSse() {
  const child = startChild('./sse-node.js');
  const { url } = await child.ready;
  const client = createHttpClient(url, { maxSockets: 1 });
  const stream = await followStream(url, { path: '/events' });
  try {
    return await sample(SAMPLES, async (i) => {
      const arrived = stream.next((event) => event.data === `{"gateId":"gate_${i}","outcome":"approved"}`);
      const t0 = process.hrtime.bigint();
      await client.send({
        method: 'POST',
        path: '/push',
        body: { gateId: `gate_${i}`, outcome: 'approved' },
      });
      return Number((await arrived) - t0) / 1e6;
    });
  } finally {
    stream.close();
    client.close();
    await child.stop();
  }
}

async function measureLongPoll(node, agentClient, reviewerClient) {
  const agent = node.tokens.agents[0].token;
  return sample(SAMPLES, async (i) => {
    const gateId = await openGate(agentClient, agent, i);
    const wait = startRequest(agentClient, waitCall(agent, gateId));
    await wait.sent;
    await untilWaiting(node, 1);
    const t0 = process.hrtime.bigint();
    const decided = sendOk(reviewerClient, decideCall(node.tokens.developer, gateId));
    const { body } = await wait.answered;
    const latency = msSince(t0);
    await decided;
    if (body.outcome !== 'approved') throw new Error(`woke with ${JSON.stringify(body)}`);
    return latency;
  });
}

async function measureRunStream(node, agentClient, reviewerClient) {
  const agent = node.tokens.agents[1].token;
  const created = await agentClient.send({
    method: 'POST',
    path: '/v1/runs',
    headers: bearer(agent),
    body: {},
  });
  if (created.status !== 201) throw new Error(`POST /v1/runs: ${created.status}`);
  const runId = created.body.run.id;
  await approvePlan(agentClient, { agent, reviewer: node.tokens.developer }, runId);
  const stream = await followStream(node.url, { path: `/v1/runs/${runId}/events`, headers: bearer(agent) });
  try {
    return await sample(SAMPLES, async (i) => {
      const opened = stream.next((event) => event.event === 'gate.opened');
      const gateId = await openGate(agentClient, agent, i, { runId });
      await opened;
      const decided = stream.next(
        (event) => event.event === 'gate.decided' && JSON.parse(event.data).gateId === gateId,
      );
      const t0 = process.hrtime.bigint();
      await sendOk(reviewerClient, decideCall(node.tokens.developer, gateId));
      return Number((await decided) - t0) / 1e6;
    });
  } finally {
    stream.close();
  }
}

async function measureGatehouse() {
  const node = await startGatehouse({ dialect: 'sqlite', agents: 2 });
  const agentClient = createHttpClient(node.url, { maxSockets: 4 });
  const reviewerClient = createHttpClient(node.url, { maxSockets: 1 });
  try {
    const longPoll = await measureLongPoll(node, agentClient, reviewerClient);
    const runStream = await measureRunStream(node, agentClient, reviewerClient);
    return { longPoll, runStream };
  } finally {
    agentClient.close();
    reviewerClient.close();
    await node.stop();
  }
}

/** p50 and p99 from the decision being sent to the agent holding it, on SQLite (each decision is an fsync'd commit). */
export async function run() {
  const bare = await measureBareSse();
  const { longPoll, runStream } = await measureGatehouse();
  for (const [name, figures] of [
    ['long-poll', longPoll],
    ['sse', runStream],
  ]) {
    report(`server.wakeup.sqlite.${name}.p50`, { value: figures.p50, unit: 'ms', baseline: bare.p50 });
    report(`server.wakeup.sqlite.${name}.p99`, {
      value: figures.p99,
      unit: 'ms',
      baseline: bare.p99,
      targetRatio: 0.5,
    });
  }
}
