// Claude Code hook start-up: the whole `gatehouse hook claude-code` process for a tool call the policy
// allows (spawn → answer → exit, against a Gatehouse node in a child process), vs. a bare `node -e 0`
// measured in the same run, alternating so both see the same machine load. It runs before every tool call.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGatehouse } from './lib/gatehouse.js';
import { msSince, percentile } from './lib/stats.js';
import { report } from './report.js';

const RUNS = 30;
const WARMUP = 3;
const LAUNCHER = fileURLToPath(new URL('../packages/cli/bin/gatehouse.js', import.meta.url));

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

async function hookOnce(env, i) {
  const run = await timeProcess([LAUNCHER, 'hook', 'claude-code'], { env, input: readCall(i) });
  const decision = run.stdout === '' ? null : JSON.parse(run.stdout).hookSpecificOutput?.permissionDecision;
  if (run.code !== 0 || decision !== 'allow')
    throw new Error(`the hook did not allow: ${run.code} ${run.stdout}`);
  return run.ms;
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
      const measured = await hookOnce(env, i);
      if (i < WARMUP) continue;
      bare.push(baseline);
      hook.push(measured);
    }
  } finally {
    await node.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const base = summary(bare);
  const value = summary(hook);
  report('hook.claude-code.allow.p50', { value: value.p50, unit: 'ms', baseline: base.p50 });
  report('hook.claude-code.allow.p90', { value: value.p90, unit: 'ms', baseline: base.p90 });
}
