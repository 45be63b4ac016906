// Starts a Gatehouse node in a child process and speaks its HTTP API as agents and reviewers do.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './child.js';
import { sendOk } from './http.js';
import { startBenchPostgres } from './postgres.js';
import { sleep } from './stats.js';

/**
 * Starts a node on SQLite (a temp dir on disk) or Postgres with `agents` agent tokens and `people` tech
 * leads' session tokens; `env` adds GATEHOUSE_* settings. `stop()` removes everything.
 */
export async function startGatehouse({ dialect = 'sqlite', agents = 50, people = 0, env = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const postgres = dialect === 'postgres' ? await startBenchPostgres() : null;
  const database =
    postgres === null ? {} : { connectionString: postgres.connectionString, schema: postgres.schema };
  const child = startChild('./gatehouse-node.js', { dialect, dir, agents, people, env, ...database });
  try {
    const info = await child.ready;
    return {
      ...info,
      child,
      postgresKind: postgres?.kind ?? null,
      /** Closes the node (ending it by its pid after `graceMs`), the database and the temp dir. */
      async stop(graceMs = 10_000) {
        await child.stop(graceMs);
        await postgres?.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await child.stop();
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** `Authorization` header for a token. */
export function bearer(token) {
  return { authorization: `Bearer ${token}` };
}

/** A tool call the default policy allows (file reads need no approval). */
export function allowedCall(token, i = 0) {
  return {
    method: 'POST',
    path: '/v1/gates',
    headers: bearer(token),
    body: { tool: 'read_file', args: { path: `src/file-${i}.ts` } },
  };
}

/** A tool call the default policy gates (writes need a person), with a long deadline. */
export function gatedCall(token, i = 0, extra = {}) {
  const body = {
    tool: 'write_file',
    args: { path: `src/file-${i}.ts`, content: 'x' },
    timeoutSeconds: 3600,
    ...extra,
  };
  return { method: 'POST', path: '/v1/gates', headers: bearer(token), body };
}

/** Opens a gate for the agent and returns its id. */
export async function openGate(client, token, i, extra = {}) {
  const answer = await sendOk(client, gatedCall(token, i, extra));
  if (answer.outcome !== 'gated') throw new Error(`expected a gate, got ${JSON.stringify(answer)}`);
  return answer.gateId;
}

/** Gate 0: the agent sends its run's plan and `reviewer` approves it, so a run at partial may implement. */
export async function approvePlan(client, tokens, runId) {
  const plan = { runId, event: 'planning_complete', operation: 'implement the plan' };
  const asked = await sendOk(client, {
    method: 'POST',
    path: '/v1/gates',
    headers: bearer(tokens.agent),
    body: plan,
  });
  if (asked.outcome !== 'gated') throw new Error(`expected an intent gate, got ${JSON.stringify(asked)}`);
  await sendOk(client, decideCall(tokens.reviewer, asked.gateId));
}

/** The long-poll an agent blocks on until its gate ends (at most 60 s). */
export function waitCall(token, gateId, timeoutMs = 30_000) {
  return {
    method: 'GET',
    path: `/v1/gates/${gateId}/wait?timeoutMs=${timeoutMs}`,
    headers: bearer(token),
    timeoutMs: timeoutMs + 10_000,
  };
}

/** A reviewer's approval. */
export function decideCall(token, gateId) {
  return {
    method: 'POST',
    path: `/v1/gates/${gateId}/decide`,
    headers: bearer(token),
    body: { option: 'approve', reason: 'ok' },
  };
}

/** Resolves once at least `count` long-polls are registered on the node (checked every millisecond). */
export async function untilWaiting(node, count, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await node.child.call('waiting');
    if (waiting >= count) return waiting;
    if (Date.now() > deadline) throw new Error(`only ${waiting} of ${count} waits registered`);
    await sleep(1);
  }
}
