// Claude Code over HTTP and the bundled command hook.
// 1. The http hook: POST /v1/hooks/claude-code/pre-tool-use for a Read the policy allows, beside a bare
//    GET /healthz to the same node on the same kept-alive connection, alternating; the difference is
//    what deciding a tool call adds to one local HTTP request (target ≤ 2 ms at p50).
// 2. The command hook as installed (`gatehouse hook claude-code`, loaded from its single-file bundle with
//    Node's compile cache where Node has it) beside `node -e 0` (target ≤ 1.3×), with two floors measured
//    in the same rounds: a Node process that only connects to the server, and one that sends the hook's
//    request and prints the answer with nothing else (lib/bare-hook-client.cjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGatehouse } from './lib/gatehouse.js';
import { msSince, percentile } from './lib/stats.js';
import { report } from './report.js';

const HTTP_RUNS = 400;
const PROCESS_RUNS = 30;
const WARMUP = 20;
const LAUNCHER = fileURLToPath(new URL('../packages/cli/bin/gatehouse.cjs', import.meta.url));
const BARE_CLIENT = fileURLToPath(new URL('./lib/bare-hook-client.cjs', import.meta.url));

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

function p50(samples) {
  return percentile(Float64Array.from(samples).sort(), 50);
}

async function timed(request) {
  const started = process.hrtime.bigint();
  const response = await request();
  const text = await response.text();
  return { ms: msSince(started), status: response.status, text };
}

async function httpHookFigures(node) {
  const token = node.tokens.agents[0].token;
  const hookUrl = `${node.url}/v1/hooks/claude-code/pre-tool-use?mode=wait&waitMs=25000`;
  const bare = [];
  const hook = [];
  for (let i = 0; i < WARMUP + HTTP_RUNS; i++) {
    const baseline = await timed(() => fetch(`${node.url}/healthz`));
    const measured = await timed(() =>
      fetch(hookUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: readCall(i),
      }),
    );
    const decision = JSON.parse(measured.text).hookSpecificOutput?.permissionDecision;
    if (measured.status !== 200 || decision !== 'allow')
      throw new Error(`the http hook did not allow: ${measured.text}`);
    if (i < WARMUP) continue;
    bare.push(baseline.ms);
    hook.push(measured.ms);
  }
  const value = p50(hook);
  const base = p50(bare);
  report('hook.claude-code.http.allow.p50', { value, unit: 'ms', baseline: base });
  console.log(
    `hook.claude-code.http: deciding a call adds ${(value - base).toFixed(2)} ms at p50 to a bare request (target ≤ 2 ms)`,
  );
}

function timeProcess(args, { env, input = '' }) {
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

/** p50 of each command, run in turn (so all see the same load), the first three rounds left out. */
async function processFigures(commands, env) {
  const samples = commands.map(() => []);
  for (let i = 0; i < 3 + PROCESS_RUNS; i++) {
    for (const [k, command] of commands.entries()) {
      const run = await timeProcess(command.args, { env, input: readCall(i) });
      command.check?.(run);
      if (i >= 3) samples[k].push(run.ms);
    }
  }
  return samples.map(p50);
}

function allowed(run) {
  if (run.code !== 0 || !run.stdout.includes('"allow"'))
    throw new Error(`the hook did not allow: ${run.stdout}`);
}

async function commandHookFigures(node, stateDir) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: stateDir,
    XDG_STATE_HOME: stateDir,
    GATEHOUSE_URL: node.url,
    GATEHOUSE_TOKEN: node.tokens.agents[0].token,
  };
  const [base, connect, bare, value] = await processFigures(
    [
      { args: ['-e', '0'] },
      { args: [BARE_CLIENT, 'connect-only'] },
      { args: [BARE_CLIENT], check: allowed },
      { args: [LAUNCHER, 'hook', 'claude-code'], check: allowed },
    ],
    env,
  );
  report('hook.claude-code.command.bundled.p50', { value, unit: 'ms', baseline: base });
  report('hook.claude-code.command.floor-connect.p50', { value: connect, unit: 'ms', baseline: base });
  report('hook.claude-code.command.floor-request.p50', { value: bare, unit: 'ms', baseline: base });
  const cache = typeof (await import('node:module')).default.enableCompileCache === 'function';
  const times = (ms) => `${(ms / base).toFixed(2)}×`;
  console.log(
    `hook.claude-code.command: ${times(value)} node -e 0 at p50 (target ≤ 1.3×; compile cache ${cache ? 'on' : `not in Node ${process.version}`})`,
  );
  console.log(
    `hook.claude-code.command floor: a Node process that only connects to the server and exits ${times(connect)}; one that sends the same request and prints the answer, with nothing else, ${times(bare)}`,
  );
}

export async function run() {
  const node = await startGatehouse({ dialect: 'sqlite', agents: 1 });
  const stateDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-cc-'));
  try {
    await httpHookFigures(node);
    await commandHookFigures(node, stateDir);
  } finally {
    await node.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
