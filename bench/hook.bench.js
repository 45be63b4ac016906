// Claude Code hook start-up: the whole `gatehouse hook claude-code` process for a tool call the policy
// allows (spawn → answer → exit, against a Gatehouse node in a child process), vs. a bare `node -e 0`
// measured in the same run, alternating so both see the same machine load. It runs before every tool call.
// An Edit in a run also sends its change to POST /v1/analyze: its figure has the allowed Read in the
// same run as baseline, so the difference is the time change analysis adds to an edit.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGatehouse } from './lib/gatehouse.js';
import { msSince, percentile } from './lib/stats.js';
import { report } from './report.js';

const RUNS = 30;
const WARMUP = 3;
const LAUNCHER = fileURLToPath(new URL('../packages/cli/bin/gatehouse.cjs', import.meta.url));

/** Spawns `args` with `input` on stdin; resolves with the wall time to exit and what it printed. */
function timeProcess(args, { env, input = '' } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: msSince(started), code, stdout }));
    child.stdin.end(input);
  });
}

/** A Read call exactly as Claude Code hands it to a PreToolUse hook. */
function readCall(i) {
  return JSON.stringify({
    session_id: 'bench-session',
    transcript_path: '/tmp/bench-session.jsonl',
    cwd: '/home/dev/shop',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_input: { file_path: `/home/dev/shop/src/file-${i}.ts` },
    tool_use_id: `toolu_bench${i}`,
  });
}

/** A harmless Edit of a 15-test file exactly as Claude Code hands it to a PreToolUse hook. */
function editCall(i, file) {
  return JSON.stringify({
    session_id: 'bench-session',
    transcript_path: '/tmp/bench-session.jsonl',
    cwd: '/home/dev/shop',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: file, old_string: 'total([7, 3])', new_string: 'total([3, 7])' },
    tool_use_id: `toolu_benchedit${i}`,
  });
}

/** A test file of 15 tests (about 110 lines), the size of a typical unit test file. */
function cartTests() {
  const tests = Array.from(
    { length: 15 },
    (_, i) => `
  it('sums basket ${i}', () => {
    const items = [${i}, ${i + 1}, ${i + 2}];
    const sum = total(items);
    expect(sum).toBe(${3 * i + 3});
    expect(items).toHaveLength(3);
  });
`,
  );
  return `import { describe, expect, it } from 'vitest';
import { total } from './cart.js';

describe('cart', () => {
  it('sums in any order', () => {
    expect(total([7, 3])).toBe(10);
  });
${tests.join('')}});
`;
}

async function hookOnce(env, input) {
  const run = await timeProcess([LAUNCHER, 'hook', 'claude-code'], { env, input });
  const decision = run.stdout === '' ? null : JSON.parse(run.stdout).hookSpecificOutput?.permissionDecision;
  if (run.code !== 0 || decision !== 'allow')
    throw new Error(`the hook did not allow: ${run.code} ${run.stdout}`);
  return run.ms;
}

/** Lets Edit (and the baseline's Read) through by policy: the figure is the analysis plus the usual allowed request. */
const EDITS_ALLOWED = `name: bench-edits
defaultAction: gate
rules:
  - id: bench-edits-allowed
    priority: 300
    match: { tools: [Edit, Read] }
    action: allow
    reason: Edits are checked by change analysis.
`;

async function api(node, token, method, path, body) {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** An Edit and a Read in the same run, alternating; the Read is the Edit's baseline. */
async function editFigures(node, env, stateDir) {
  await api(node, node.tokens.admin, 'PUT', '/v1/policy', { source: EDITS_ALLOWED, format: 'yaml' });
  const agent = node.tokens.agents[0].token;
  const { run } = await api(node, agent, 'POST', '/v1/runs', { title: 'bench edits' });
  // Gate 0: the run's plan is approved before its edits.
  const plan = { runId: run.id, event: 'planning_complete', operation: 'edit the cart tests' };
  const { gateId } = await api(node, agent, 'POST', '/v1/gates', plan);
  await api(node, node.tokens.developer, 'POST', `/v1/gates/${gateId}/decide`, { option: 'approve' });
  const file = join(stateDir, 'cart.test.ts');
  writeFileSync(file, cartTests());
  const inRun = { ...env, GATEHOUSE_RUN_ID: run.id };
  const read = [];
  const edit = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const baseline = await hookOnce(inRun, readCall(i));
    const measured = await hookOnce(inRun, editCall(i, file));
    if (i < WARMUP) continue;
    read.push(baseline);
    edit.push(measured);
  }
  const added = summary(edit.map((ms, i) => ms - (read[i] ?? ms)));
  const base = summary(read);
  const value = summary(edit);
  report('hook.claude-code.edit.p50', { value: value.p50, unit: 'ms', baseline: base.p50 });
  report('hook.claude-code.edit.p90', { value: value.p90, unit: 'ms', baseline: base.p90 });
  console.log(
    `hook.claude-code.edit: change analysis adds ${added.p50.toFixed(1)} ms at p50 (target ≤ 50 ms)`,
  );
}

function summary(samples) {
  const sorted = Float64Array.from(samples).sort();
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90) };
}

/** Median and p90 of the hook process against `node -e 0`; target: at most 2× (ratio ≥ 0.5). */
export async function run() {
  const node = await startGatehouse({ dialect: 'sqlite', agents: 1 });
  const stateDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-hook-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: stateDir,
    XDG_STATE_HOME: stateDir,
    GATEHOUSE_URL: node.url,
    GATEHOUSE_TOKEN: node.tokens.agents[0].token,
  };
  const bare = [];
  const hook = [];
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const baseline = (await timeProcess(['-e', '0'], { env })).ms;
      const measured = await hookOnce(env, readCall(i));
      if (i < WARMUP) continue;
      bare.push(baseline);
      hook.push(measured);
    }
    await editFigures(node, env, stateDir);
  } finally {
    await node.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const base = summary(bare);
  const value = summary(hook);
  report('hook.claude-code.allow.p50', { value: value.p50, unit: 'ms', baseline: base.p50 });
  report('hook.claude-code.allow.p90', { value: value.p90, unit: 'ms', baseline: base.p90 });
}
