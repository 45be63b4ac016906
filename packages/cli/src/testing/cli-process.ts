import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary; tests run it as a real process (`npx tsc -b` first). */
export const CLI_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  env?: Record<string, string>;
  /** Written to stdin, which is then closed (stdin is never a TTY here). */
  input?: string;
  timeoutMs?: number;
  /** Working directory of the process. @default this process's */
  cwd?: string;
}

/** The environment of the test process without any Gatehouse settings, so only what a test sets applies (and no Node version warning). */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('GATEHOUSE_') && !key.startsWith('CONFIDENCE_'))
      env[key] = value;
  }
  // Tests may run on a Node older than engines allows; the warning is tested on its own.
  return { ...env, NO_COLOR: '1', GATEHOUSE_NODE_CHECK: 'off', ...extra };
}

/** Runs `gatehouse …args` to completion. */
export function runGatehouse(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], {
      env: cleanEnv(options.env),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
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
      reject(new Error(`gatehouse ${args.join(' ')} did not finish; stdout: ${stdout} stderr: ${stderr}`));
    }, options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A process that exits before reading its input closes the pipe: its exit code tells what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A `gatehouse serve` child process on a free port with its own data dir. */
export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** The one-time login link printed on first start. */
  loginLink: string | null;
  output(): string;
  /** Sends SIGTERM to this process only and waits for it to exit; returns the exit code. */
  stop(): Promise<number | null>;
}

export interface ServeOptions {
  /** Wait for the first-start login link. @default true */
  expectLink?: boolean;
  args?: string[];
  env?: Record<string, string>;
}

/** Starts `gatehouse serve --port 0 --data-dir <dataDir>` and waits for the URL (and login link) it prints. */
export function startServe(dataDir: string, options: ServeOptions = {}): Promise<ServeProcess> {
  const { expectLink = true, args = [], env = {} } = options;
  const child = spawn(
    process.execPath,
    [CLI_MAIN, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', ...args],
    { env: cleanEnv(env) },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gatehouse serve did not start: ${output}`));
    }, 20_000);
    const onData = (chunk: string) => {
      output += chunk;
      const url = /Gatehouse is listening on (\S+)/.exec(output)?.[1];
      const link = /Open (\S+\/login#token=\S+)/.exec(output)?.[1] ?? null;
      const ready = expectLink ? /gatehouse login .*\n/.test(output) : /API docs: .*\n/.test(output);
      if (url && ready) {
        clearTimeout(timer);
        resolve({ child, url, loginLink: link, output: () => output, stop });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gatehouse serve exited with ${code}: ${output}`));
    });
  });
}

/** A temp directory and a function that removes it. */
export function tempDir(prefix = 'gatehouse-cli-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
