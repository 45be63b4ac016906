import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type CliResult, runGatehouse, type ServeProcess, startServe, tempDir } from './cli-process.js';

/** A `gatehouse serve` for one test file, signed in with its login link, with an agent registered. */
export interface CliServer {
  readonly server: ServeProcess;
  readonly temp: { dir: string; remove(): void };
  /** The CLI's environment: its own config folder, where the session is kept. */
  readonly env: Record<string, string>;
  /** The token of the agent `build-bot`. */
  readonly agentToken: string;
  /** Runs `gatehouse` as the signed-in admin, with `input` on stdin. */
  gatehouse(args: string[], input?: string): Promise<CliResult>;
  /** Calls the API as the agent `build-bot`, each call with its own idempotency key; throws on an error status. */
  asAgent<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Calls the API with `token`, each call with its own idempotency key; throws on an error status. */
export async function callApi<T>(
  to: { url: string; token: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${to.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${to.token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Starts the server before the file's tests and stops it after them. */
export function useCliServer(): CliServer {
  let server: ServeProcess | undefined;
  let temp: { dir: string; remove(): void } | undefined;
  let env: Record<string, string> = {};
  let agentToken = '';
  const gatehouse = (args: string[], input?: string): Promise<CliResult> =>
    runGatehouse(args, { env, ...(input === undefined ? {} : { input }) });

  beforeAll(async () => {
    temp = tempDir();
    env = { XDG_CONFIG_HOME: join(temp.dir, 'config') };
    server = await startServe(join(temp.dir, 'data'));
    const login = await gatehouse(['login', '--link', server.loginLink as string]);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const agent = await gatehouse(['agents', 'create', 'build-bot', '--profile', 'coder', '--json']);
    expect(agent.code).toBe(0);
    agentToken = (JSON.parse(agent.stdout) as { token: string }).token;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    temp?.remove();
  });

  const asAgent = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    callApi<T>({ url: started(server).url, token: agentToken }, method, path, body);

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the CLI server runs only inside the tests of its file');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get temp() {
      return started(temp);
    },
    get env() {
      return env;
    },
    get agentToken() {
      return agentToken;
    },
    gatehouse,
    asAgent,
  };
}
