// Cross-node wake-up: a reviewer's decision sent to node A → the agent waiting on node B has it (long-poll
// and run event stream), two nodes on one Postgres woken through LISTEN/NOTIFY, vs. the same agent
// waiting on node A itself (one node, same database) in the same run. Target: p99 ≤ 20 ms.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './lib/child.js';
import { approvePlan, bearer, decideCall, openGate, untilWaiting, waitCall } from './lib/gatehouse.js';
import { createHttpClient, sendOk, startRequest } from './lib/http.js';
import { startBenchPostgres } from './lib/postgres.js';
import { openEventStream } from './lib/sse-client.js';
import { msSince, summarize } from './lib/stats.js';
import { report } from './report.js';

const WARMUP = 20;
const SAMPLES = 200;
const TARGET_P99_MS = 20;

function newToken(prefix) {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: createHash('sha256').update(token).digest('hex') };
}

/** A developer and an agent, with tokens, written straight to the shared database. */
async function seed(store) {
  const now = Date.now();
  const developer = newToken('ghs');
  const agent = newToken('gha');
  const token = { createdAt: now, expiresAt: null, revokedAt: null };
  await store.transaction(async (tx) => {
    await tx.insertUser({
      id: 'user_bench_dev',
      name: 'bench_dev',
      role: 'developer',
      passwordHash: null,
      disabled: false,
      createdAt: now,
    });
    await tx.insertToken({
      ...token,
      tokenHash: developer.tokenHash,
      kind: 'session',
      subjectId: 'user_bench_dev',
    });
    await tx.insertAgent({
      id: 'agent_bench',
      name: 'bench',
      profile: 'coder',
      autonomy: null,
      createdAt: now,
    });
    await tx.insertToken({ ...token, tokenHash: agent.tokenHash, kind: 'agent', subjectId: 'agent_bench' });
  });
  return { developer: developer.token, agent: agent.token };
}

async function sample(once) {
  const latencies = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const latency = await once(i);
    if (i >= WARMUP) latencies.push(latency);
  }
  return summarize(latencies);
}

/** The agent long-polls on `waiter`, the reviewer decides on `decider`. */
function measureLongPoll({ waiter, decider, tokens }) {
  return sample(async (i) => {
    const gateId = await openGate(waiter.client, tokens.agent, i);
    const wait = startRequest(waiter.client, waitCall(tokens.agent, gateId));
    await wait.sent;
    await untilWaiting(waiter, 1);
    const t0 = process.hrtime.bigint();
    const decided = sendOk(decider.client, decideCall(tokens.developer, gateId));
    const { body } = await wait.answered;
    const latency = msSince(t0);
    await decided;
    if (body.outcome !== 'approved') throw new Error(`woke with ${JSON.stringify(body)}`);
    return latency;
  });
}

/** The agent follows its run's events on `waiter`, the reviewer decides on `decider`. */
async function measureRunStream({ waiter, decider, tokens }) {
  const created = await waiter.client.send({
    method: 'POST',
    path: '/v1/runs',
    headers: bearer(tokens.agent),
    body: {},
  });
  if (created.status !== 201) throw new Error(`POST /v1/runs: ${created.status}`);
  const runId = created.body.run.id;
  await approvePlan(waiter.client, { agent: tokens.agent, reviewer: tokens.developer }, runId);
  let waiting = null;
  const stream = await openEventStream(waiter.url, {
    path: `/v1/runs/${runId}/events`,
    headers: bearer(tokens.agent),
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
  try {
    return await sample(async (i) => {
      const opened = next((event) => event.event === 'gate.opened');
      const gateId = await openGate(waiter.client, tokens.agent, i, { runId });
      await opened;
      const decided = next(
        (event) => event.event === 'gate.decided' && JSON.parse(event.data).gateId === gateId,
      );
      const t0 = process.hrtime.bigint();
      await sendOk(decider.client, decideCall(tokens.developer, gateId));
      return Number((await decided) - t0) / 1e6;
    });
  } finally {
    stream.close();
  }
}

async function startNode(postgres, dir) {
  mkdirSync(dir);
  const child = startChild('./cluster-node.js', {
    connectionString: postgres.connectionString,
    schema: postgres.schema,
    dir,
  });
  const { url } = await child.ready;
  return { child, url, client: createHttpClient(url, { maxSockets: 4 }) };
}

/** p50 and p99 from the decision being sent (to node A) to the agent on node B holding it, against node A alone. */
export async function run() {
  const postgres = await startBenchPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const nodes = [];
  try {
    nodes.push(await startNode(postgres, join(dir, 'a')), await startNode(postgres, join(dir, 'b')));
    const [a, b] = nodes;
    const tokens = await seed(postgres.store);
    const single = {
      longPoll: await measureLongPoll({ waiter: a, decider: a, tokens }),
      sse: await measureRunStream({ waiter: a, decider: a, tokens }),
    };
    const cross = {
      longPoll: await measureLongPoll({ waiter: b, decider: a, tokens }),
      sse: await measureRunStream({ waiter: b, decider: a, tokens }),
    };
    console.error(
      `server.wakeup.cross-node ran on ${postgres.kind === 'server' ? 'a Postgres server' : 'in-process Postgres'}`,
    );
    for (const [name, key] of [
      ['long-poll', 'longPoll'],
      ['sse', 'sse'],
    ]) {
      const figures = cross[key];
      report(`server.wakeup.cross-node.${name}.p50`, {
        value: figures.p50,
        unit: 'ms',
        baseline: single[key].p50,
      });
      report(`server.wakeup.cross-node.${name}.p99`, {
        value: figures.p99,
        unit: 'ms',
        baseline: single[key].p99,
        target: { at: TARGET_P99_MS, met: figures.p99 <= TARGET_P99_MS },
      });
    }
  } finally {
    for (const node of nodes) {
      node.client.close();
      await node.child.stop();
    }
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
