import { type HostLoginLinkResponse, hostRoutes, routeRequest } from 'gatehouse-hitl-protocol';
import { stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import { isoTime, printJson, printLines, terminalSafe } from '../output.js';

async function configOf(context: ActionContext) {
  const { values, command, io } = context;
  const database = stringOption(values, 'database');
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database)) {
    throw new UsageError('--database takes a Postgres URL: postgres://user:password@host:5432/db', command);
  }
  const dataDir = stringOption(values, 'data-dir');
  // The same settings `gatehouse serve` reads, so both always reach the same database.
  const { loadConfig } = await import('gatehouse-hitl-server');
  const { resolve } = await import('node:path');
  try {
    return loadConfig(io.env, {
      ...(database === undefined ? {} : { databaseUrl: database }),
      ...(dataDir === undefined ? {} : { dataDir: resolve(dataDir) }),
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), command);
  }
}

function explain(error: unknown): never {
  const { code, message, details } = error as {
    code?: string;
    message?: string;
    details?: { lockFile?: string };
  };
  if (code === 'SERVICE_UNAVAILABLE' && details?.lockFile !== undefined) {
    throw new CliError(
      `${message}\nOn SQLite only one process opens the database: stop \`gatehouse serve\`, run this again, then start it; the link lasts 15 minutes.`,
    );
  }
  if (code !== undefined && message !== undefined) throw new CliError(message);
  throw error;
}

interface IssuedLink {
  userId: string;
  name: string;
  token: string;
  expiresAt: number;
  url: string;
}

/** Asks the server running on this data dir, or returns null when none answers. */
async function fromRunningServer(dataDir: string, name: string | undefined): Promise<IssuedLink | null> {
  const { readHostFile, HOST_SECRET_HEADER } = await import('gatehouse-hitl-server');
  const host = await readHostFile(dataDir);
  if (host === null) return null;
  const request = routeRequest(hostRoutes.issueLoginLink, { body: name === undefined ? {} : { name } });
  let response: Response;
  try {
    response = await fetch(`${host.localUrl}${request.path}`, {
      method: request.method,
      headers: { 'content-type': 'application/json', [HOST_SECRET_HEADER]: host.secret },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    // A server.json left by a server that died: the database is free again.
    return null;
  }
  const body = (await response.json()) as HostLoginLinkResponse & { error?: unknown };
  if (!response.ok) explain(body.error);
  const { path, ...link } = body;
  return {
    userId: link.userId,
    name: link.name,
    token: link.token,
    expiresAt: link.expiresAt,
    url: `${host.url}${path}`,
  };
}

async function loginLink(context: ActionContext): Promise<number> {
  const config = await configOf(context);
  const name = stringOption(context.values, 'name');
  const { issueHostLoginLink } = await import('gatehouse-hitl-server');
  const link =
    (await fromRunningServer(config.dataDir, name)) ??
    (await issueHostLoginLink(config, { name }).catch(explain));
  if (context.json) {
    printJson(context.io, link);
    return 0;
  }
  printLines(
    context.io,
    `Login link for ${terminalSafe(link.name)} (${link.userId}), valid until ${isoTime(link.expiresAt)}, works once:`,
    `  ${link.url}`,
    `or from a terminal: gatehouse login --link '${link.url}'`,
  );
  return 0;
}

/** `gatehouse admin`: what only someone on the server host can do, straight on the database. */
export const adminCommand: Command = {
  name: 'admin',
  summary: 'Server-host tasks on the database itself, such as a new login link for a locked-out admin',
  actions: [
    {
      name: 'login-link',
      summary: 'Issue a one-time login link (15 minutes) for a person, by default the first admin',
      options: {
        name: {
          type: 'string',
          value: '<name>',
          description: 'The person’s login name (default: the first admin)',
        },
        database: {
          type: 'string',
          value: '<postgres-url>',
          description: 'The Postgres database (same as GATEHOUSE_DATABASE_URL)',
        },
        'data-dir': {
          type: 'string',
          value: '<dir>',
          description: 'Without a database: the SQLite data dir (default ./.gatehouse)',
        },
      },
      details:
        'Run it on the server host with the settings `gatehouse serve` uses; it needs no sign-in. While\n' +
        'the server runs, it asks it through the secret in <data dir>/server.json (readable by the server’s\n' +
        'owner only), and the link has the server’s real address; otherwise it opens the database directly.\n' +
        'Use it when nobody can sign in any more (the first admin signed out before setting a password).\n' +
        'Environment: GATEHOUSE_DATABASE_URL, GATEHOUSE_DATABASE_SCHEMA, GATEHOUSE_DATA_DIR, GATEHOUSE_PUBLIC_URL.',
      examples: [
        'gatehouse admin login-link --data-dir ./.gatehouse',
        'GATEHOUSE_DATABASE_URL=postgres://gatehouse@db.internal/gatehouse gatehouse admin login-link --name dana',
      ],
      run: loginLink,
    },
  ],
};
