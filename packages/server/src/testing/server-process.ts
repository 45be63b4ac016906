import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The committed `gatehouse` launcher; it runs the built CLI (`npx tsc -b` first). */
export const GATEHOUSE_BIN = fileURLToPath(new URL('../../../cli/bin/gatehouse.cjs', import.meta.url));
const BUILT_CLI = fileURLToPath(new URL('../../../cli/dist/main.js', import.meta.url));

/** A `gatehouse serve` child process: a real server that a test can kill with SIGKILL. */
export interface ServerProcess {
  readonly pid: number;
  readonly url: string;
  /** The login link token (`ghl_…`) the start printed, or null when it printed none. */
  readonly loginToken: string | null;
  output(): string;
  /** `kill -9` this process only, and wait until it has exited. */
  kill(): Promise<void>;
  /** SIGTERM this process only, and wait for its exit code. */
  stop(): Promise<number | null>;
}

export interface ServerProcessOptions {
  dataDir: string;
  /** GATEHOUSE_* settings; every other GATEHOUSE_ / CONFIDENCE_ variable of this process is left out. */
  env?: Record<string, string>;
  /** Wait for the first-start login link. @default false */
  expectLink?: boolean;
  /** @default 30_000 */
  startTimeoutMs?: number;
  /** Listen on this port, e.g. to restart a node where it was. @default 0 (any free port) */
  port?: number;
}

function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('GATEHOUSE_') && !key.startsWith('CONFIDENCE_'))
      env[key] = value;
  }
  // Tests open gates in floods on purpose; a test of the rate limits sets its own.
  const unlimited = { GATEHOUSE_AGENT_RATE_PER_SECOND: '0', GATEHOUSE_TOKEN_RATE_PER_SECOND: '0' };
  // Each Node line CI tests on runs these servers; the CLI's own tests check its Node warning.
  const quiet = { GATEHOUSE_NODE_CHECK: 'off' };
  return { ...env, NO_COLOR: '1', ...unlimited, ...quiet, ...extra };
}

function handle(child: ChildProcess, url: string, output: () => string): ServerProcess {
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  const pid = child.pid as number;
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    pid,
    url,
    loginToken: /login#token=(ghl_[A-Za-z0-9_-]+)/.exec(output())?.[1] ?? null,
    output,
    async kill() {
      if (running()) process.kill(pid, 'SIGKILL');
      await exited;
    },
    async stop() {
      if (running()) process.kill(pid, 'SIGTERM');
      return exited;
    },
  };
}

/** Starts `gatehouse serve --port <port> --data-dir <dataDir>` and waits for the URL it prints. */
export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npx tsc -b\` first`);
  const port = String(options.port ?? 0);
  const args = [GATEHOUSE_BIN, 'serve', '--port', port, '--data-dir', options.dataDir, '--log-level', 'warn'];
  const child = spawn(process.execPath, args, {
    env: childEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const output = () => text;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
      reject(new Error(`gatehouse serve did not start: ${text}`));
    }, options.startTimeoutMs ?? 30_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`gatehouse serve exited with ${code} before it was ready: ${text}`));
    };
    child.once('exit', onExit);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    let started = false;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (started) return;
      const url = /Gatehouse is listening on (\S+)/.exec(text)?.[1];
      const ready = options.expectLink ? /gatehouse login .*\n/.test(text) : /API docs: .*\n/.test(text);
      if (url === undefined || !ready) return;
      started = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(handle(child, url, output));
    });
  });
}
