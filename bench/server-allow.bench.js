// Allow path: a policy-allowed tool call over HTTP, audited durably by Gatehouse (SQLite synchronous=FULL,
// commits grouped across concurrent requests), against a bare Fastify route doing one SQLite insert per
// request at synchronous=NORMAL. Both servers run in a child process; the load comes from this one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './lib/child.js';
import { allowedCall, startGatehouse } from './lib/gatehouse.js';
import { createHttpClient, runLoad } from './lib/http.js';
import { report } from './report.js';

const CONNECTIONS = 50;
const LOAD = { connections: CONNECTIONS, warmupMs: 1000, durationMs: 5000 };

async function measureBaseline() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const child = startChild('./insert-node.js', { dir });
  const { url, synchronous } = await child.ready;
  if (synchronous !== 1) throw new Error(`baseline runs at synchronous=${synchronous}, not NORMAL`);
  const client = createHttpClient(url, { maxSockets: CONNECTIONS });
  try {
    return await runLoad(client, {
      ...LOAD,
      server: child,
      makeCall: (i, connection) => ({ ...allowedCall(`agent-${connection}`, i), path: '/v1/requests' }),
    });
  } finally {
    client.close();
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureGatehouse(dialect) {
  const node = await startGatehouse({ dialect, agents: CONNECTIONS });
  if (dialect === 'sqlite' && node.pragmas?.synchronous !== 'full') {
    throw new Error(`Gatehouse runs at synchronous=${node.pragmas?.synchronous}, not FULL`);
  }
  const client = createHttpClient(node.url, { maxSockets: CONNECTIONS });
  try {
    const result = await runLoad(client, {
      ...LOAD,
      server: node.child,
      makeCall: (i, connection) => allowedCall(node.tokens.agents[connection].token, i),
      check: (response) => response.status === 200 && response.body.outcome === 'allowed',
    });
    return { ...result, kind: node.postgresKind };
  } finally {
    client.close();
    await node.stop();
  }
}

/**
 * Requests per second, p99 latency, server CPU and bytes written per request at 50 connections: SQLite
 * against the bare insert, Postgres against SQLite.
 */
export async function run() {
  const baseline = await measureBaseline();
  const sqlite = await measureGatehouse('sqlite');
  report('server.allow.sqlite.rps', {
    value: sqlite.rps,
    unit: 'req/s',
    baseline: baseline.rps,
    higherIsBetter: true,
    targetRatio: 0.5,
  });
  report('server.allow.sqlite.p99', { value: sqlite.p99, unit: 'ms', baseline: baseline.p99 });
  // Server CPU per request holds steady when other work shares the machine, unlike requests per second.
  report('server.allow.sqlite.cpu-per-request', {
    value: sqlite.cpuPerRequest,
    unit: 'ms',
    baseline: baseline.cpuPerRequest,
  });
  // Bytes sent to storage per request do not move with other load on the machine: the I/O each call costs.
  report('server.allow.sqlite.bytes-written-per-request', {
    value: sqlite.bytesWrittenPerRequest,
    unit: 'B',
    baseline: baseline.bytesWrittenPerRequest,
  });
  const postgres = await measureGatehouse('postgres');
  console.error(
    `server.allow.postgres ran on ${postgres.kind === 'server' ? 'a Postgres server' : 'in-process Postgres'}`,
  );
  report('server.allow.postgres.rps', {
    value: postgres.rps,
    unit: 'req/s',
    baseline: sqlite.rps,
    higherIsBetter: true,
  });
  report('server.allow.postgres.p99', { value: postgres.p99, unit: 'ms', baseline: sqlite.p99 });
}
