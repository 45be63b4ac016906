// Audit checkpoints under the allow load: the server's event-loop delay max while 50 connections send
// allowed calls and the chain's head is signed every 5 s, beside the same load with no checkpoint due
// (the interval a day). Target: within 2× of no checkpoint.
import { allowedCall, startGatehouse } from './lib/gatehouse.js';
import { createHttpClient, runLoad } from './lib/http.js';
import { report } from './report.js';

const CONNECTIONS = 50;
const CHECKPOINT_MS = 5000;
const NO_CHECKPOINT_MS = 86_400_000;
/** Three checkpoints fall in each measured run. */
const LOAD = { connections: CONNECTIONS, warmupMs: 1000, durationMs: 3 * CHECKPOINT_MS + 1000 };

async function loopDelayUnderLoad(intervalMs) {
  const node = await startGatehouse({
    dialect: 'sqlite',
    agents: CONNECTIONS,
    env: { GATEHOUSE_AUDIT_CHECKPOINT_INTERVAL_MS: String(intervalMs) },
  });
  const client = createHttpClient(node.url, { maxSockets: CONNECTIONS });
  try {
    await node.child.call('startLoopDelay');
    const load = await runLoad(client, {
      ...LOAD,
      server: node.child,
      makeCall: (i, connection) => allowedCall(node.tokens.agents[connection].token, i),
      check: (response) => response.status === 200 && response.body.outcome === 'allowed',
    });
    const delay = await node.child.call('stopLoopDelay');
    const checkpoints = await node.child.call('auditCheckpoints');
    return { ...delay, rps: load.rps, checkpoints };
  } finally {
    client.close();
    await node.stop();
  }
}

/** Event-loop delay max (and p99) under the allow load, checkpoint every 5 s against none. */
export async function run() {
  const without = await loopDelayUnderLoad(NO_CHECKPOINT_MS);
  const withCheckpoints = await loopDelayUnderLoad(CHECKPOINT_MS);
  if (withCheckpoints.checkpoints < 2)
    throw new Error(`only ${withCheckpoints.checkpoints} checkpoints were signed`);
  console.error(
    `audit.checkpoint: ${withCheckpoints.checkpoints} checkpoints signed during the load; ` +
      `${withCheckpoints.rps.toFixed(0)} req/s with them, ${without.rps.toFixed(0)} without; loop delay p99 ` +
      `${withCheckpoints.p99.toFixed(1)} ms with, ${without.p99.toFixed(1)} ms without`,
  );
  report('audit.checkpoint-5s.loop-delay-max', {
    value: withCheckpoints.max,
    unit: 'ms',
    baseline: without.max,
    target: { at: 2 * without.max, met: withCheckpoints.max <= 2 * without.max },
  });
}
