// Waiting agents: many agents blocked on open gates on one node, each on the long-poll wait the SDK uses
// by default, and the server's memory per waiting agent vs. a bare node:http Server-Sent-Events server
// holding as many idle streams. Memory per agent is the slope between two loads (all the waits against
// half of them, after GCs, over the second half) of V8's live heap plus the memory its objects hold
// outside it. VmRSS is printed beside it but is not the figure: V8 hands freed pages back to the system
// when it chooses, so the set-up's garbage could leave the process between the two readings.
import { execFileSync } from 'node:child_process';
import { startChild } from './lib/child.js';
import { startGatehouse, untilWaiting, waitCall } from './lib/gatehouse.js';
import { createHttpClient, startRequest } from './lib/http.js';
import { openEventStream } from './lib/sse-client.js';
import { sleep } from './lib/stats.js';
import { report } from './report.js';

const WANTED = 10_000;
/** Descriptors this process keeps for everything but the held connections. */
const SPARE_FDS = 1000;
/** Connections being opened at once, so the listen backlog never overflows. */
const OPENING = 200;

/** How many connections this process may hold: one file descriptor each, within its open-file limit. */
function agentCount() {
  const limit = execFileSync('/bin/sh', ['-c', 'ulimit -n']).toString().trim();
  const fds = limit === 'unlimited' ? Number.POSITIVE_INFINITY : Number(limit);
  const count = Math.min(WANTED, fds - SPARE_FDS);
  if (count < WANTED) console.error(`waiting: open-file limit ${fds} allows ${count} agents, not ${WANTED}`);
  return count;
}

/** Opens `count` connections, at most OPENING not yet established at a time. */
async function openPaced(count, open) {
  let next = 0;
  await Promise.all(
    Array.from({ length: OPENING }, async () => {
      while (next < count) await open(next++);
    }),
  );
}

/** The child's live heap (with external memory) and VmRSS, after two full GCs and a moment to settle. */
async function settledMemory(child) {
  await child.call('gc');
  await sleep(300);
  await child.call('gc');
  await sleep(300);
  return { heap: await child.call('heap'), rss: child.rss() };
}

/** Bytes per connection between the first half and all of `count`: `openHalf(from, to)` opens one half. */
async function slope(child, count, openHalf) {
  const half = Math.floor(count / 2);
  await openHalf(0, half);
  const before = await settledMemory(child);
  await openHalf(half, count);
  const after = await settledMemory(child);
  const added = count - half;
  return { heap: (after.heap - before.heap) / added, rss: (after.rss - before.rss) / added };
}

async function measureBareSse(count) {
  const child = startChild('./sse-node.js');
  const { url } = await child.ready;
  const streams = [];
  try {
    return await slope(child, count, async (from, to) => {
      await openPaced(to - from, async () => {
        streams.push(await openEventStream(url, { path: '/events' }));
      });
      const open = await child.call('streams');
      if (open !== to) throw new Error(`${open} of ${to} streams open`);
    });
  } finally {
    for (const stream of streams) stream.close();
    await child.stop();
  }
}

async function measureGatehouse(count) {
  const node = await startGatehouse({ dialect: 'sqlite', agents: count });
  const client = createHttpClient(node.url, { maxSockets: count });
  let ended = 0;
  try {
    const gateIds = await node.child.call('openGates', { count });
    const perAgent = await slope(node.child, count, async (from, to) => {
      let next = from;
      await openPaced(to - from, async () => {
        const i = next++;
        const wait = startRequest(client, waitCall(node.tokens.agents[i].token, gateIds[i], 60_000));
        wait.answered.then(
          () => (ended += 1),
          () => {},
        );
        await wait.sent;
      });
      await untilWaiting(node, to, 40_000);
    });
    if (ended > 0) throw new Error(`${ended} waits ended before the measurement`);
    return perAgent;
  } finally {
    client.close();
    // Every dropped long-poll is answered on its way out, so closing takes a while with thousands.
    await node.stop(60_000);
  }
}

/** Bytes of server memory per blocked agent, against bytes per idle stream of the bare SSE server. */
export async function run() {
  const count = agentCount();
  const bare = await measureBareSse(count);
  const gatehouse = await measureGatehouse(count);
  const kib = (bytes) => (bytes / 1024).toFixed(1);
  console.error(`waiting: VmRSS per agent ${kib(gatehouse.rss)} KiB, per bare stream ${kib(bare.rss)} KiB`);
  report(`server.waiting.sqlite.${count}-agents.memory-per-agent`, {
    value: gatehouse.heap / 1024,
    unit: 'KiB',
    baseline: bare.heap / 1024,
  });
}
