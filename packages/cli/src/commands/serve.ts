import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { choiceOption, intOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { UsageError } from '../errors.js';
import { startDemo } from './serve-demo.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

interface ServeOverrides {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  publicUrl?: string;
  logLevel?: string;
}

function overridesFrom(context: ActionContext): ServeOverrides {
  const { values, command } = context;
  const overrides: ServeOverrides = {};
  const port = intOption(values, 'port', { min: 0, max: 65_535, command });
  if (port !== undefined) overrides.port = port;
  const host = stringOption(values, 'host');
  if (host !== undefined) overrides.host = host;
  const dataDir = stringOption(values, 'data-dir');
  if (dataDir !== undefined) overrides.dataDir = dataDir;
  const database = stringOption(values, 'database');
  if (database !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(database)) {
      throw new UsageError('--database takes a Postgres URL: postgres://user:password@host:5432/db', command);
    }
    overrides.databaseUrl = database;
  }
  const publicUrl = stringOption(values, 'public-url');
  if (publicUrl !== undefined) overrides.publicUrl = publicUrl;
  const logLevel = choiceOption(values, 'log-level', LOG_LEVELS, command);
  if (logLevel !== undefined) overrides.logLevel = logLevel;
  return overrides;
}

/** The web app this package carries: `web/`, copied from packages/ui/dist by the build. */
const PACKAGED_WEB_APP = fileURLToPath(new URL('../../web', import.meta.url));

/** The built web app: GATEHOUSE_UI_DIR, or the one this package carries; null when absent. */
function webAppDir(env: NodeJS.ProcessEnv): { dir: string | null; looked: string } {
  const looked = env.GATEHOUSE_UI_DIR ?? PACKAGED_WEB_APP;
  return { dir: existsSync(join(looked, 'index.html')) ? looked : null, looked };
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function serve(context: ActionContext): Promise<number> {
  const overrides = overridesFrom(context);
  // Loaded here only, so the other commands start without the server's dependencies.
  const { loadConfig, startServer } = await import('gatehouse-hitl-server');
  const { mcpEndpoints } = await import('gatehouse-hitl-mcp');
  const { resolve } = await import('node:path');
  const otlp = stringOption(context.values, 'otlp-endpoint');
  if (otlp !== undefined && !/^https?:\/\/[^/]/.test(otlp)) {
    throw new UsageError(
      '--otlp-endpoint takes an OTLP/HTTP base URL: http://127.0.0.1:4318',
      context.command,
    );
  }
  // The option is the standard variable, read and checked by the server's config like it.
  const env = otlp === undefined ? context.io.env : { ...context.io.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp };
  const config = loadConfig(env, {
    ...overrides,
    ...(overrides.dataDir === undefined ? {} : { dataDir: resolve(overrides.dataDir) }),
  });
  const web = webAppDir(context.io.env);
  if (web.dir === null) {
    context.io.stderr.write(
      `No web app in ${web.looked} (no index.html): the login link and inbox will not open; the API and /docs still work.\n` +
        'In the repository, `npm run build` builds it; or point GATEHOUSE_UI_DIR at a built web app.\n',
    );
  }
  const stopped = untilSignal();
  const server = await startServer({
    config,
    uiDir: web.dir,
    handleSignals: false,
    print: (line) => void context.io.stdout.write(`${line}\n`),
    mcp: mcpEndpoints,
  });
  const demo =
    context.values.demo === true
      ? await startDemo(context, server).catch(async (error: unknown) => {
          await server.close();
          throw error;
        })
      : null;
  await stopped;
  context.io.stdout.write('Gatehouse is shutting down\n');
  // The server ends the agent's waits itself; an agent aborted first leaves sockets the drain waits out.
  const closing = server.close();
  await demo?.stop();
  await closing;
  return 0;
}

/** `gatehouse serve`: run the server in the foreground until SIGINT or SIGTERM. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the Gatehouse server (SQLite in ./.gatehouse by default, or Postgres)',
  actions: [
    {
      name: '',
      summary: 'Run the Gatehouse server in the foreground until Ctrl-C or SIGTERM',
      json: false,
      options: {
        port: {
          type: 'string',
          short: 'p',
          value: '<port>',
          description: 'Port to listen on (default 7300; 0 = any free port)',
        },
        host: { type: 'string', value: '<host>', description: 'Address to listen on (default 127.0.0.1)' },
        'data-dir': {
          type: 'string',
          value: '<dir>',
          description: 'Where the SQLite database and keys live (default ./.gatehouse)',
        },
        database: {
          type: 'string',
          value: '<postgres-url>',
          description: 'Use Postgres instead of SQLite (same as GATEHOUSE_DATABASE_URL)',
        },
        'public-url': {
          type: 'string',
          value: '<url>',
          description: 'Address people reach the server at (links use it)',
        },
        'log-level': {
          type: 'string',
          value: '<level>',
          description: `One of ${LOG_LEVELS.join(', ')} (default info)`,
        },
        'otlp-endpoint': {
          type: 'string',
          value: '<url>',
          description:
            'Send OpenTelemetry traces and metrics to this OTLP/HTTP collector (same as OTEL_EXPORTER_OTLP_ENDPOINT)',
        },
        demo: {
          type: 'boolean',
          description: 'Also run a scripted coding agent that sends gates to answer (agent demo-agent)',
        },
      },
      details:
        'On first start it creates an admin and prints a one-time login link.\n' +
        'Environment: GATEHOUSE_HOST, GATEHOUSE_PORT, GATEHOUSE_DATA_DIR, GATEHOUSE_DATABASE_URL,\n' +
        'GATEHOUSE_PUBLIC_URL, GATEHOUSE_LOG_LEVEL, CONFIDENCE_THRESHOLD, OTEL_EXPORTER_OTLP_ENDPOINT,\n' +
        'OTEL_SERVICE_NAME; options win over them. Tracing: docs/tracing.md.\n' +
        'The web app is served at / from GATEHOUSE_UI_DIR (default: the one this package carries).\n' +
        '--demo runs a scripted coding agent (no LLM) in this process with its own agent token: it asks\n' +
        'before each step of a small job (a plan review, file writes, shell commands, a confidence report),\n' +
        'so gates arrive in the inbox within seconds, and it goes on as you answer them.',
      examples: [
        'gatehouse serve',
        'gatehouse serve --demo',
        'gatehouse serve --port 8080 --database postgres://gatehouse@localhost/gatehouse',
        'gatehouse serve --otlp-endpoint http://127.0.0.1:4318',
      ],
      run: serve,
    },
  ],
};
