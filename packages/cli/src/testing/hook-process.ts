import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './cli-process.js';

/** The committed launcher Claude Code runs as `gatehouse hook claude-code` (`npx tsc -b` first). */
export const LAUNCHER = fileURLToPath(new URL('../../bin/gatehouse.cjs', import.meta.url));

/** What one hook process did. */
export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Spawn to exit, in milliseconds. */
  elapsedMs: number;
  /** The parsed `hookSpecificOutput`, when stdout held hook JSON. */
  decision: { permissionDecision: string; permissionDecisionReason: string } | null;
  systemMessage: string | null;
}

/**
 * A `PreToolUse` hook input exactly as Claude Code writes it to the hook's stdin.
 * @example preToolUse('Bash', { command: 'rm -rf build', description: 'Remove the build directory' })
 */
export function preToolUse(
  toolName: string,
  toolInput: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    session_id: 'f3c1d2b4-9a7e-4c55-8e21-6b0f1a2c3d4e',
    transcript_path: '/home/dev/.claude/projects/-home-dev-shop/f3c1d2b4-9a7e-4c55-8e21-6b0f1a2c3d4e.jsonl',
    cwd: '/home/dev/shop',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: `toolu_01${Math.random().toString(36).slice(2, 12)}`,
    ...overrides,
  };
}

/** Runs `gatehouse hook claude-code …args` with `input` on stdin, as Claude Code does. */
export function runHook(
  input: unknown,
  options: { env?: Record<string, string>; args?: string[]; timeoutMs?: number } = {},
): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [LAUNCHER, 'hook', 'claude-code', ...(options.args ?? [])], {
      env: cleanEnv(options.env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the hook did not exit; stdout: ${stdout} stderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const elapsedMs = performance.now() - started;
      const parsed = stdout.trim() === '' ? null : JSON.parse(stdout);
      resolve({
        code,
        stdout,
        stderr,
        elapsedMs,
        decision: parsed?.hookSpecificOutput ?? null,
        systemMessage: parsed?.systemMessage ?? null,
      });
    });
    // A process that exits before reading its input closes the pipe: its exit code tells what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(typeof input === 'string' ? input : JSON.stringify(input));
  });
}
