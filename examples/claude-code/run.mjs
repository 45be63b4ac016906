#!/usr/bin/env node
// Plays Claude Code: sends the PreToolUse hook input it writes to `gatehouse hook claude-code`.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOptions, runMain, say, sayWaiting } from '../shared/cli.mjs';

const HELP = `Usage: node examples/claude-code/run.mjs [--url URL] [--token TOKEN] [--path PATH]

Does what Claude Code does with the Gatehouse PreToolUse hook: pipes the hook input for a Read
(allowed at once) and for a Bash \`rm -rf PATH\` (denied while approval is pending, with the gate id)
to \`gatehouse hook claude-code\`, then retries the same Bash call until a person has decided.`;

const GATEHOUSE_BIN = fileURLToPath(new URL('../../packages/cli/bin/gatehouse.cjs', import.meta.url));
/** The first Bash call's budget: the hook answers "pending" after this long without a decision. */
const FIRST_BUDGET_MS = 1000;
const PENDING = /Approval is pending \(gate (gate_[A-Za-z0-9_]+)/;

/** Runs the hook once with `input` on stdin, as Claude Code does; returns its parsed answer. */
function runHook(input, env, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GATEHOUSE_BIN, 'hook', 'claude-code', ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the hook exited with ${code}: ${stdout}`));
      else resolve(JSON.parse(stdout));
    });
    child.stdin.end(JSON.stringify(input));
  });
}

async function main() {
  const { url, token, path } = readOptions(HELP);
  const response = await fetch(`${url}/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Claude Code hook example: clean up ${path}` }),
  });
  if (!response.ok) throw new Error(`POST /v1/runs → ${response.status} ${await response.text()}`);
  const { run } = await response.json();
  say(`run ${run.id} started`);

  // The hook remembers pending calls in $XDG_STATE_HOME/gatehouse/claude-code; keep this demo's apart.
  const stateDir = mkdtempSync(join(tmpdir(), 'gatehouse-claude-code-example-'));
  const env = {
    GATEHOUSE_URL: url,
    GATEHOUSE_TOKEN: token,
    GATEHOUSE_RUN_ID: run.id,
    XDG_STATE_HOME: stateDir,
  };
  const sessionId = randomUUID();
  const cwd = process.cwd();
  /** The PreToolUse input exactly as Claude Code writes it to the hook's stdin. */
  const preToolUse = (toolName, toolInput) => ({
    session_id: sessionId,
    transcript_path: join(cwd, '.claude', `${sessionId}.jsonl`),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: `toolu_01${randomUUID().replaceAll('-', '').slice(0, 20)}`,
  });
  const ask = async (label, input, args) => {
    const answer = await runHook(input, env, args);
    say(`${label} → ${JSON.stringify(answer)}`);
    return answer.hookSpecificOutput;
  };

  try {
    const read = await ask('Read README.md', preToolUse('Read', { file_path: join(cwd, 'README.md') }));
    say(`Read README.md: ${read.permissionDecision}`);

    const command = `rm -rf ${path}`;
    const label = `Bash ${command}`;
    const bash = { command, description: `Remove ${path}` };
    // A short budget for the first call, so the pending answer (and its gate id) comes back quickly.
    let answer = await ask(label, preToolUse('Bash', bash), ['--budget-ms', String(FIRST_BUDGET_MS)]);
    const gateId = PENDING.exec(answer.permissionDecisionReason)?.[1];
    if (gateId !== undefined) sayWaiting(gateId, label);
    // Claude Code's model retries exactly the same call; the hook finds the same gate.
    while (PENDING.test(answer.permissionDecisionReason)) {
      answer = await ask(`${label} (retry)`, preToolUse('Bash', bash), ['--budget-ms', '20000']);
    }
    say(`${label}: ${answer.permissionDecision} (${answer.permissionDecisionReason})`);
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

runMain(main);
