import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type LiveServer, startLiveServer } from 'gatehouse-hitl-sdk/testing';
import { type RunningServer, startServer } from 'gatehouse-hitl-server';

/** Debian's interpreter, which CI installs with python3-pytest; never a virtualenv's. */
export const PYTHON = process.env.GATEHOUSE_TEST_PYTHON ?? '/usr/bin/python3';
/** The Python package's sources, put on PYTHONPATH so the tests import what is in the repository. */
export const PYTHON_SOURCES = fileURLToPath(new URL('../src', import.meta.url));

/**
 * A real server on 127.0.0.1 that Python tests can restart: `POST <controlUrl>/restart` stops the
 * app and its database (the SQLite file stays), waits `?downMs=` (default 300), starts it again on
 * the same port and answers 204 once it listens again.
 */
export interface RestartableServer {
  live: LiveServer;
  url: string;
  controlUrl: string;
  restarts: number;
  /** The environment a Python test process needs: the URLs and tokens. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startRestartableServer(): Promise<RestartableServer> {
  // The server refuses a paused run's request after 20 ms instead of holding it, so the SDK's own
  // wait-and-ask-again for a paused run is what the pause test exercises.
  const pausedRunHoldMs = 20;
  const live = await startLiveServer({ pausedRunHoldMs });
  let restarted: RunningServer | null = null;
  let restarting: Promise<void> = Promise.resolve();
  const restart = async (downMs: number) => {
    if (restarted === null) {
      await live.test.app.close();
      await live.test.store.close();
    } else {
      await restarted.close();
    }
    await new Promise((resolve) => setTimeout(resolve, downMs));
    restarted = await startServer({
      config: { ...live.test.config, port: live.port, logLevel: 'silent' },
      handleSignals: false,
      print: () => {},
    });
  };
  const state = { restarts: 0 };
  const control: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'POST' || url.pathname !== '/restart') {
      response.writeHead(404).end();
      return;
    }
    const downMs = Math.min(5000, Math.max(0, Number(url.searchParams.get('downMs') ?? 300) || 0));
    restarting = restarting.then(() => restart(downMs));
    restarting.then(
      () => {
        state.restarts++;
        response.writeHead(204).end();
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  const { tokens, ids } = live.test;
  return {
    live,
    url: live.url,
    controlUrl,
    get restarts() {
      return state.restarts;
    },
    env: () => ({
      GATEHOUSE_TEST_URL: live.url,
      GATEHOUSE_TEST_CONTROL_URL: controlUrl,
      GATEHOUSE_TEST_AGENT_TOKEN: tokens.agent,
      GATEHOUSE_TEST_DEVELOPER_TOKEN: tokens.developer,
      GATEHOUSE_TEST_DEVELOPER_ID: ids.developerId,
      GATEHOUSE_TEST_VIEWER_TOKEN: tokens.viewer,
      GATEHOUSE_TEST_OTHER_AGENT_ID: ids.otherAgentId,
      GATEHOUSE_TEST_PAUSED_RUN_HOLD_MS: String(pausedRunHoldMs),
    }),
    async close() {
      await new Promise((resolve) => control.close(resolve));
      await restarting.catch(() => {});
      await (restarted as RunningServer | null)?.close();
      await live.close();
    },
  };
}

export interface PythonRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs Debian's python3 with the package's sources on PYTHONPATH, asynchronously so this process
 * keeps serving the requests the Python side makes. A missing interpreter is an error, not a skip.
 */
export function runPython(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<PythonRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, args, {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        LANG: 'C.UTF-8',
        PYTHONPATH: PYTHON_SOURCES,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONUNBUFFERED: '1',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${PYTHON} (install python3 and python3-pytest): ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
