import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { warmUp as warmUpAnalysis } from 'gatehouse-hitl-analysis';
import type { Clock } from 'gatehouse-hitl-core';
import { createPostgresStore, createSqliteStore, type Store } from 'gatehouse-hitl-store';
import { buildApp } from './app.js';
import type { ServerConfig } from './config.js';
import { issueDemoAgentToken } from './demo-agent-token.js';
import { seedDemoWorkspace } from './demo-workspace.js';
import { type BusLog, createInProcessBus, type EventBus } from './events/bus.js';
import { createPostgresBus } from './events/postgres-bus.js';
import { createHostSecret, removeHostFile, writeHostFile } from './host-file.js';
import { drainServer } from './http/drain.js';
import { requestLogFields } from './http/log-redaction.js';
import { createLogDestination } from './log-destination.js';
import type { McpEndpoints } from './mcp-endpoints.js';
import { bootstrap } from './services/people/admin-service.js';

export interface StartServerOptions {
  config: ServerConfig;
  /** Serve the web app's built files from this folder. */
  uiDir?: string | null;
  /** Defaults to the system clock. */
  clock?: Clock;
  /** Where the start-up lines (URL, first-start login link) go; defaults to stdout. */
  print?: (line: string) => void;
  /** Stop on SIGINT and SIGTERM. @default true */
  handleSignals?: boolean;
  /** The MCP endpoints to mount at `/mcp` and `/mcp/gateway`. @default null */
  mcp?: McpEndpoints | null;
}

export interface RunningServer {
  url: string;
  /** The first-start login link token, when this start created the admin. */
  loginToken: string | null;
  /** A fresh token for the agent `name` (created if new, older tokens revoked), for an agent run in this process. */
  issueAgentToken(name: string): Promise<string>;
  /**
   * Creates a run's repository with `files` (path → text) as main's first commit, before anyone
   * used it (`409 CONFLICT` after): the sample project a demo agent run in this process works on.
   */
  seedWorkspace(runId: string, files: Readonly<Record<string, string>>): Promise<void>;
  /**
   * Stops accepting, ends event streams and long-polls, lets in-flight requests finish (up to
   * `shutdownTimeoutMs`), then closes the bus and the store; safe to call twice.
   */
  close(): Promise<void>;
}

/** The store `config` names: Postgres when a database URL is set, else SQLite in the data dir. */
export async function openStore(config: ServerConfig, clock: Clock): Promise<Store> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema === null ? {} : { schema: config.databaseSchema };
    return createPostgresStore({ connectionString: config.databaseUrl, clock, ...schema });
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return createSqliteStore({ file: join(config.dataDir, 'gatehouse.db'), clock });
}

/** Postgres: LISTEN/NOTIFY across nodes; SQLite is one node, so the bus stays in the process. */
async function openBus(config: ServerConfig, store: Store, log: BusLog): Promise<EventBus> {
  if (!config.databaseUrl) return createInProcessBus({ log });
  return createPostgresBus({
    connectionString: config.databaseUrl,
    schema: config.databaseSchema,
    store,
    pollIntervalMs: config.eventsPollIntervalMs,
    log,
  });
}

function baseUrl(config: ServerConfig, address: string): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  return listenUrl(config, address);
}

function listenUrl(config: ServerConfig, address: string): string {
  const port = new URL(address).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
}

/** Opens the database, builds the app, creates the first admin if needed and listens. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const skew = config.testClockSkewMs;
  const clock = options.clock ?? { now: () => Date.now() + skew };
  const print = options.print ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const store = await openStore(config, clock);
  // The bus comes before the app and its logger: it logs through the app's once there is one.
  let appLog: FastifyBaseLogger | null = null;
  const busLog: BusLog = {
    info: (details, message) => appLog?.info(details, message),
    warn: (details, message) => appLog?.warn(details, message),
  };
  const bus = await openBus(config, store, busLog).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const logs = createLogDestination({ file: config.logFile });
  // Emailed decision links carry their token in the query: request logs leave it out.
  const logger = { level: config.logLevel, stream: logs, serializers: { req: requestLogFields } };
  const hostSecret = createHostSecret();
  const deps = {
    store,
    bus,
    clock,
    config,
    uiDir: options.uiDir ?? null,
    logDropped: logs.dropped,
    hostSecret,
    mcp: options.mcp ?? null,
  };
  const app = await buildApp(deps, { logger }).catch(async (error: unknown) => {
    await bus.close();
    await store.close();
    await logs.close();
    throw error;
  });
  appLog = app.log;
  const { services, context } = app.gatehouse;
  const first = await bootstrap(context, services.sessions);
  const stopRetention = services.audit.startRetention();
  // Grammars take tens of milliseconds each to load: the first analysed edit should not wait for them.
  void warmUpAnalysis().catch((error: unknown) =>
    app.log.warn({ err: error }, 'analysis grammars did not load'),
  );
  const address = await app.listen({ host: config.host, port: config.port });
  const url = baseUrl(config, address);
  const hostFile = { url, localUrl: listenUrl(config, address), pid: process.pid, secret: hostSecret };
  await writeHostFile(config.dataDir, hostFile).catch((error: unknown) => {
    // On Postgres the data dir is optional: `gatehouse admin login-link` opens the database instead.
    if (config.databaseUrl && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
    app.log.warn({ err: error }, 'server.json not written; `gatehouse admin login-link` opens the database');
  });

  print(`Gatehouse is listening on ${url}`);
  if (first.noAdminPassword && first.loginToken) {
    print('No admin has a password yet: sign in with the link below and set one on the Account screen');
  } else if (first.noAdminPassword) {
    print('No admin can sign in; run `gatehouse admin login-link` here');
  }
  print(`API docs: ${url}/docs`);
  if (first.loginToken) {
    const link = `${url}/login#token=${first.loginToken}`;
    print(`Open ${link} to sign in (valid 15 minutes)`);
    print(`or from a terminal: gatehouse login --link '${link}'`);
  }

  let closing: Promise<void> | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    app.log.info({ signal }, 'shutting down');
    void close();
  };
  function close(): Promise<void> {
    closing ??= (async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stopRetention();
      const drained = await drainServer(app.server, {
        timeoutMs: config.shutdownTimeoutMs,
        endLongLived() {
          services.streams.close();
          services.gates.close();
        },
      });
      if (!drained) {
        app.log.warn(
          { timeoutMs: config.shutdownTimeoutMs },
          'shutdown timed out; cut the requests still open',
        );
      }
      await app.close();
      await removeHostFile(config.dataDir, hostSecret).catch(() => undefined);
      await bus.close();
      await store.close();
      await logs.close();
    })();
    return closing;
  }
  if (options.handleSignals ?? true) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  const issueAgentToken = (name: string) => issueDemoAgentToken(services, name);
  const seedWorkspace = (runId: string, files: Readonly<Record<string, string>>) =>
    seedDemoWorkspace(context, runId, files);
  return { url, loginToken: first.loginToken, issueAgentToken, seedWorkspace, close };
}
