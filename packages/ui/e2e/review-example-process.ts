import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The built example agent (`npx tsc -b examples/phase-review` makes it). */
export const EXAMPLE_MAIN = fileURLToPath(
  new URL('../../../examples/phase-review/dist/main.js', import.meta.url),
);

const execGit = promisify(execFile);

/** This process's environment without Gatehouse settings, so only the flags the test passes apply. */
function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('GATEHOUSE_')) env[key] = value;
  }
  return { ...env, NO_COLOR: '1' };
}

/**
 * The example agent `examples/phase-review` as a child process of the test: its output kept for
 * failure messages, its exit awaited, and only it ended (by its pid) when the test is done.
 */
export class ExampleAgentProcess {
  readonly exited: Promise<number | null>;
  #text = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly home: string,
  ) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#text += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#text += chunk;
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (signal !== null) this.#text += `\n(ended by ${signal})`;
        resolve(code);
      });
      child.once('error', (error) => {
        this.#text += `\n(could not start: ${error.message})`;
        resolve(null);
      });
    });
  }

  /** `node examples/phase-review/dist/main.js --url … --token … --run … --dir <a new directory>`. */
  static start(options: { url: string; token: string; runId: string }): ExampleAgentProcess {
    if (!existsSync(EXAMPLE_MAIN)) {
      throw new Error(`${EXAMPLE_MAIN} is missing: run \`npx tsc -b examples/phase-review\` first`);
    }
    const home = mkdtempSync(join(tmpdir(), 'gh-example-'));
    const args = ['--url', options.url, '--token', options.token, '--run', options.runId];
    const child = spawn(process.execPath, [EXAMPLE_MAIN, ...args, '--dir', join(home, 'repo')], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ExampleAgentProcess(child, home);
  }

  /** Everything the agent printed so far. */
  output(): string {
    return this.#text;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits for the agent to exit by itself; fails with its output after `timeoutMs`. */
  async exit(timeoutMs: number): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the example agent did not exit in ${timeoutMs} ms:\n${this.output()}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGTERM to this child only (SIGKILL after 5 s), then its directory goes. */
  async close(): Promise<void> {
    const pid = this.child.pid;
    if (pid !== undefined && this.running) {
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => {
        if (this.running) process.kill(pid, 'SIGKILL');
      }, 5_000);
      await this.exited;
      clearTimeout(timer);
    }
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** Runs the real `git` with a person's session token on every request to the server. */
export async function gitAs(token: string, args: string[], cwd: string): Promise<string> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: cwd,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Bearer ${token}`,
    LANG: 'C',
    LC_ALL: 'C',
  };
  try {
    const { stdout } = await execGit('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return stdout.trim();
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')} failed: ${failed.stderr ?? failed.message}`, { cause: error });
  }
}
