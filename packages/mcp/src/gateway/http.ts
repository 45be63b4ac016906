import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { SILENT_LOGGER } from '../context.js';
import { GATEWAY_VERSION, type GatewayOptions, gateOptionsFor, type RunningGateway } from './gateway.js';
import { createGatewayServer } from './server.js';
import { UpstreamPool } from './upstreams.js';

/** Options of `serveGatewayHttp`. */
export interface GatewayHttpOptions extends GatewayOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 7310 */
  port?: number;
  /** @default 100 */
  maxSessions?: number;
}

/** A gateway listening on Streamable HTTP at `url` (ending in `/mcp`). */
export interface RunningHttpGateway extends RunningGateway {
  url: string;
}

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  tokenHash: string;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

function reply(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError('the request body is over 4 MiB');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

function bearerOf(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * Serves the gateway over Streamable HTTP at `/mcp` (`gatehouse mcp proxy --http`). Each client
 * sends its own Gatehouse token as `Authorization: Bearer …`; a session opens only after Gatehouse
 * accepts the token, is bound to it, and asks the policy with it. Upstreams are shared.
 */
export async function serveGatewayHttp(options: GatewayHttpOptions): Promise<RunningHttpGateway> {
  const log = options.log ?? SILENT_LOGGER;
  const host = options.host ?? '127.0.0.1';
  const maxSessions = options.maxSessions ?? 100;
  const pool = await UpstreamPool.connect(options.upstreams, GATEWAY_VERSION);
  const sessions = new Map<string, Session>();
  let allowedHosts: string[] = [];

  async function open(req: IncomingMessage, res: ServerResponse, token: string, body: unknown) {
    if (sessions.size >= maxSessions) return reply(res, 503, 'too many open sessions; try again later');
    const gate = gateOptionsFor(options, token);
    const accepted = await gate.api.me().then(
      () => true,
      () => false,
    );
    if (!accepted) return reply(res, 401, 'Gatehouse did not accept the bearer token');
    const server = createGatewayServer(pool, gate, GATEWAY_VERSION);
    const session: Session = {
      server,
      tokenHash: hashOf(token),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (id) => void sessions.set(id, session),
        onsessionclosed: (id) => void sessions.delete(id),
      }),
    };
    await server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://gateway').pathname !== '/mcp')
      return reply(res, 404, 'not found; use /mcp');
    const token = bearerOf(req);
    if (token === null) return reply(res, 401, 'send Authorization: Bearer <your Gatehouse token>');
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // Another token's session looks like an unknown one: a session id is never confirmed.
      if (!session || session.tokenHash !== hashOf(token)) return reply(res, 404, 'Session not found');
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return reply(res, 400, 'send initialize first, then the Mcp-Session-Id it returns');
    }
    return open(req, res, token, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof SyntaxError || error instanceof RangeError) return reply(res, 400, error.message);
      log.error({ err: error }, 'gateway request failed');
      reply(res, 500, 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 7310, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  allowedHosts = [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
  let done: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    closed,
    close() {
      closing ??= (async () => {
        const open = [...sessions.values()];
        sessions.clear();
        await Promise.allSettled(open.map((session) => session.server.close()));
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        await pool.close();
        done();
      })();
      return closing;
    },
  };
}
