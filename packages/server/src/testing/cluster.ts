import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from 'gatehouse-hitl-core';
import { startTestPostgres, type TestPostgres } from 'gatehouse-hitl-store/testing';
import {
  type CallOptions,
  createHttpClient,
  type HttpClient,
  type HttpResult,
  sleep,
} from './http-client.js';
import { addTestPeople, type TestPerson } from './listening-app.js';
import { type PgProxy, startPgProxy } from './pg-proxy.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

/**
 * A policy that gates every tool call (reads of `read_file` aside), for tests that need gates; a
 * person's rule lets `migrate_proceed` gates proceed by themselves at their deadline.
 */
export const GATE_EVERYTHING_POLICY = `name: cluster-tests
defaultAction: gate
rules:
  - id: reads
    priority: 100
    match: { tools: [read_file] }
    action: allow
    reason: Reads are fine.
  - id: migrations-may-proceed
    priority: 100
    match: { tools: [migrate_proceed] }
    action: { gate: { timeoutSeconds: 1, timeoutAction: proceed, risk: low } }
    reason: Only a person's rule lets a gate proceed by itself.
`;

/**
 * A load size for `cluster`: `server` on a Postgres server, `inProcess` on the in-process one, which
 * runs every node's statements one at a time on a single session inside the test process.
 */
export function loadFor(cluster: Cluster, sizes: { server: number; inProcess: number }): number {
  return cluster.postgres.kind === 'server' ? sizes.server : sizes.inProcess;
}

/** How to start a cluster; the defaults give three nodes on one fresh Postgres schema. */
export interface ClusterOptions {
  /** @default 3 */
  nodes?: number;
  /** GATEHOUSE_* settings for every node (the database ones are set by the cluster). */
  env?: Record<string, string>;
  /** Settings for one node on top of `env`, by index, e.g. `{ 1: { GATEHOUSE_TEST_CLOCK_SKEW_MS: '300000' } }`. */
  nodeEnv?: Record<number, Record<string, string>>;
  /** Reach Postgres through a proxy the test can cut (`cluster.proxy`). @default false */
  proxy?: boolean;
  /** How often each node sweeps for due timeouts. @default 100 */
  sweepIntervalMs?: number;
  /** Keep-alive sockets of each node's client. @default 32 */
  maxSockets?: number;
}

/** One `gatehouse serve` child of the cluster; its URL stays the same across restarts. */
export interface ClusterNode {
  readonly index: number;
  readonly url: string;
  readonly port: number;
  /** A keep-alive client for this node (requests fail while the node is down). */
  readonly client: HttpClient;
  /** The running process, or null after `kill` or `stop`. */
  readonly process: ServerProcess | null;
  readonly isRunning: boolean;
}

/** N nodes on one Postgres schema, with an admin and an agent whose tokens work on every node. */
export interface Cluster {
  readonly nodes: readonly ClusterNode[];
  /** The database; `postgres.store` reaches it directly (never through the proxy) for checks. */
  readonly postgres: TestPostgres;
  /** Between the nodes and Postgres when `proxy: true`, else null. */
  readonly proxy: PgProxy | null;
  readonly tokens: { admin: string; agent: string };
  readonly ids: { adminId: string; agentId: string };
  /** Node `index`, throwing for one that does not exist. */
  node(index: number): ClusterNode;
  /** The client of node `i % nodes`: spreads work over the cluster by a counter. */
  client(i: number): HttpClient;
  /**
   * Sends to node `i % nodes`, moving on to the next node while one is down (connection refused or
   * reset) or answers 503, for up to `withinMs` (default 30 s). Only for requests that are safe to
   * repeat: reads, and writes with an idempotency key.
   */
  callAnyNode(
    i: number,
    method: string,
    path: string,
    options?: CallOptions & { withinMs?: number },
  ): Promise<HttpResult>;
  /** `kill -9` a node and wait until it has exited. */
  kill(index: number): Promise<void>;
  /** SIGTERM a node (graceful shutdown) and return its exit code. */
  stop(index: number): Promise<number | null>;
  /** Starts a stopped or killed node again on the same port; `env` adds to its settings. */
  restart(index: number, env?: Record<string, string>): Promise<void>;
  /** Makes `source` (YAML) the active policy, as the admin through the first running node. @default GATE_EVERYTHING_POLICY */
  setPolicy(source?: string): Promise<void>;
  /** People with session tokens that do not expire, created in the shared database. */
  addPeople(prefix: string, roles: readonly Role[]): Promise<TestPerson[]>;
  /** Kills every node still running, closes the proxy, drops the schema, removes the data dirs. */
  close(): Promise<void>;
}

interface NodeState {
  index: number;
  url: string;
  port: number;
  client: HttpClient;
  process: ServerProcess | null;
  dataDir: string;
  env: Record<string, string>;
}

function viewOf(state: NodeState): ClusterNode {
  return {
    index: state.index,
    get url() {
      return state.url;
    },
    get port() {
      return state.port;
    },
    get client() {
      return state.client;
    },
    get process() {
      return state.process;
    },
    get isRunning() {
      return state.process !== null;
    },
  };
}

async function bootstrapTokens(
  client: HttpClient,
  loginToken: string | null,
): Promise<{ admin: string; agent: string; adminId: string; agentId: string }> {
  if (loginToken === null) throw new Error('the first node printed no login link');
  const login = await client.call('POST', '/v1/auth/link', { body: { token: loginToken } });
  if (login.status !== 200) throw new Error(`admin sign-in failed: ${JSON.stringify(login.body)}`);
  const admin: string = login.body.token;
  const agent = await client.call('POST', '/v1/agents', { token: admin, body: { name: 'cluster-agent' } });
  if (agent.status !== 201) throw new Error(`creating the agent failed: ${JSON.stringify(agent.body)}`);
  return { admin, agent: agent.body.token, adminId: login.body.user.id, agentId: agent.body.agent.id };
}

/**
 * Starts `nodes` real `gatehouse serve` processes on one Postgres (GATEHOUSE_TEST_DATABASE_URL or the
 * in-process one) in a schema of their own: node 0 first, so it migrates and creates the admin,
 * then the others together.
 * @example const cluster = await startCluster({ nodes: 3 }); await cluster.node(1).client.call('GET', '/readyz');
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.nodes ?? 3;
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-cluster-'));
  const postgres = await startTestPostgres();
  const states: NodeState[] = [];
  let proxy: PgProxy | null = null;

  async function close(): Promise<void> {
    for (const state of states) state.client.close();
    await Promise.all(states.map((state) => state.process?.kill()));
    await proxy?.close();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  }

  async function launch(state: NodeState, expectLink: boolean): Promise<ServerProcess> {
    const server = await startServerProcess({
      dataDir: state.dataDir,
      env: state.env,
      expectLink,
      port: state.port,
    });
    state.process = server;
    state.url = server.url;
    state.port = Number(new URL(server.url).port);
    if (state.client.url !== server.url) {
      state.client.close();
      state.client = createHttpClient(server.url, { maxSockets: options.maxSockets ?? 32 });
    }
    return server;
  }

  try {
    if (options.proxy === true) proxy = await startPgProxy(postgres.connectionString);
    const shared = {
      ...options.env,
      GATEHOUSE_DATABASE_URL: proxy?.connectionString ?? postgres.connectionString,
      GATEHOUSE_DATABASE_SCHEMA: postgres.schema,
      GATEHOUSE_SWEEP_INTERVAL_MS: String(options.sweepIntervalMs ?? 100),
      // One audit key for every node, as docs/audit.md asks, so each node's checkpoints verify on all.
      GATEHOUSE_AUDIT_KEY_FILE: join(root, 'audit-signing-key.pem'),
    };
    for (let index = 0; index < count; index++) {
      const dataDir = join(root, `node-${index}`);
      mkdirSync(dataDir);
      const env = { ...shared, ...options.nodeEnv?.[index] };
      states.push({
        index,
        url: '',
        port: 0,
        client: createHttpClient('http://127.0.0.1:1'),
        process: null,
        dataDir,
        env,
      });
    }
    const [first, ...rest] = states as [NodeState, ...NodeState[]];
    const firstServer = await launch(first, true);
    await Promise.all(rest.map((state) => launch(state, false)));
    const boot = await bootstrapTokens(first.client, firstServer.loginToken);
    const tokens = { admin: boot.admin, agent: boot.agent };
    const ids = { adminId: boot.adminId, agentId: boot.agentId };

    const stateOf = (index: number): NodeState => {
      const state = states[index];
      if (state === undefined) throw new Error(`the cluster has no node ${index} (it has ${states.length})`);
      return state;
    };
    const nodes = states.map(viewOf);
    return {
      nodes,
      postgres,
      proxy,
      tokens,
      ids,
      node: (index) => {
        stateOf(index);
        return nodes[index] as ClusterNode;
      },
      client: (i) => stateOf(i % states.length).client,
      async callAnyNode(i, method, path, { withinMs = 30_000, ...call } = {}) {
        const until = Date.now() + withinMs;
        for (let attempt = 0; ; attempt++) {
          const state = stateOf((i + attempt) % states.length);
          const answer = await state.client
            .call(method, path, call)
            .catch((error: unknown) => error as Error);
          const retry = answer instanceof Error || answer.status === 503;
          if (!retry || Date.now() > until) {
            if (answer instanceof Error) throw answer;
            return answer;
          }
          if (attempt % states.length === states.length - 1) await sleep(100);
        }
      },
      async kill(index) {
        const state = stateOf(index);
        await state.process?.kill();
        state.process = null;
      },
      async stop(index) {
        const state = stateOf(index);
        const code = (await state.process?.stop()) ?? null;
        state.process = null;
        return code;
      },
      async restart(index, env = {}) {
        const state = stateOf(index);
        if (state.process !== null) throw new Error(`node ${index} is still running; kill or stop it first`);
        state.env = { ...state.env, ...env };
        await launch(state, false);
      },
      async setPolicy(source = GATE_EVERYTHING_POLICY) {
        const body = { source };
        const running = states.find((state) => state.process !== null);
        if (running === undefined) throw new Error('no node is running');
        const answer = await running.client.call('PUT', '/v1/policy', { token: tokens.admin, body });
        if (answer.status !== 200)
          throw new Error(`setting the policy failed: ${JSON.stringify(answer.body)}`);
        // Reading the policy on a node takes the new version up there at once, not a poll later.
        for (const state of states.filter((each) => each.process !== null)) {
          await state.client.call('GET', '/v1/policy', { token: tokens.admin });
        }
      },
      addPeople: (prefix, roles) =>
        addTestPeople({ store: postgres.store, clock: { now: () => Date.now() } }, prefix, roles),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
