import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '@gatehouse/core';
import { createPostgresStore, createSqliteStore, type Store } from '@gatehouse/store';
import { buildApp } from './app.js';
import type { ServerConfig } from './config.js';
import { createInProcessBus } from './events/bus.js';
import { bootstrap } from './services/admin-service.js';

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
}

export interface RunningServer {
  url: string;
  /** The first-start login link token, when this start created the admin. */
  loginToken: string | null;
  /** Stops accepting, ends streams, closes the store; safe to call twice. */
  close(): Promise<void>;
}

async function openStore(config: ServerConfig, clock: Clock): Promise<Store> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema === null ? {} : { schema: config.databaseSchema };
    return createPostgresStore({ connectionString: config.databaseUrl, clock, ...schema });
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return createSqliteStore({ file: join(config.dataDir, 'gatehouse.db'), clock });
}

function baseUrl(config: ServerConfig, address: string): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const port = new URL(address).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
}

/** Opens the database, builds the app, creates the first admin if needed and listens. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const print = options.print ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const store = await openStore(config, clock);
  const bus = createInProcessBus();
  const logger = { level: config.logLevel };
  const app = await buildApp({ store, bus, clock, config, uiDir: options.uiDir ?? null }, { logger }).catch(
    async (error: unknown) => {
      await store.close();
      throw error;
    },
  );
  const { services, context } = app.gatehouse;
  const first = await bootstrap(context, services.sessions);
  const stopRetention = services.audit.startRetention();
  const address = await app.listen({ host: config.host, port: config.port });
  const url = baseUrl(config, address);

  print(`Gatehouse is listening on ${url}`);
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
      await app.close();
      await bus.close();
      await store.close();
    })();
    return closing;
  }
  if (options.handleSignals ?? true) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  return { url, loginToken: first.loginToken, close };
}
