// Claude Code over HTTP and the bundled command hook.
// 1. The http hook: POST /v1/hooks/claude-code/pre-tool-use for a Read the policy allows, beside a bare
//    GET /healthz to the same node on the same kept-alive connection, alternating; the difference is
//    what deciding a tool call adds to one local HTTP request (target ≤ 2 ms at p50).
// 2. The command hook as installed (`gatehouse hook claude-code`, loaded from its single-file bundle with
//    Node's compile cache where Node has it) beside `node -e 0` (target ≤ 1.3×).
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

async function commandHookFigures(node, stateDir) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: stateDir,
    XDG_STATE_HOME: stateDir,
    GATEHOUSE_URL: node.url,
    GATEHOUSE_TOKEN: node.tokens.agents[0].token,
  };
  const bare = [];
  const hook = [];
  for (let i = 0; i < 3 + PROCESS_RUNS; i++) {
    const baseline = (await timeProcess(['-e', '0'], { env })).ms;
    const run = await timeProcess([LAUNCHER, 'hook', 'claude-code'], { env, input: readCall(i) });
    if (run.code !== 0 || !run.stdout.includes('"allow"'))
      throw new Error(`the hook did not allow: ${run.stdout}`);
    if (i < 3) continue;
    bare.push(baseline);
    hook.push(run.ms);
  }
  const value = p50(hook);
  const base = p50(bare);
  report('hook.claude-code.command.bundled.p50', { value, unit: 'ms', baseline: base });
  const cache = typeof (await import('node:module')).default.enableCompileCache === 'function';
  console.log(
    `hook.claude-code.command: ${(value / base).toFixed(2)}× node -e 0 at p50 (target ≤ 1.3×; compile cache ${cache ? 'on' : `not in Node ${process.version}`})`,
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
