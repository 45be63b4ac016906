import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { GatehouseApi } from '../api.js';
import { type McpLogger, SILENT_LOGGER } from '../context.js';
import { createGatewayServer } from './server.js';
import type { ToolGateOptions } from './tool-call.js';
import type { UpstreamPool } from './upstreams.js';

/** Options of the gateway's Streamable HTTP handler. */
export interface GatewayHttpHandlerOptions {
  /** The upstreams, connected on the first session (again after a failure) or handed in connected. */
  connect(): Promise<UpstreamPool>;
  /** The version reported to clients. */
  version: string;
  /** The run every tool call belongs to. @default null */
  runId?: string | null;
  /** @default 5000 */
  progressIntervalMs?: number;
  /** @default 600000 */
  callTimeoutMs?: number;
  /** @default 100 */
  maxSessions?: number;
  /**
   * The `Host` values accepted (DNS-rebinding protection); null when the host checks it already.
   * @default null
   */
  allowedHosts?: () => string[] | null;
  /** Ask Gatehouse (`GET /v1/me`) whether the token is valid before a session opens. @default true */
  verifyToken?: boolean;
  log?: McpLogger;
}

/** One request: the bearer token it carries, where the Gatehouse API answers, its parsed body. */
export interface GatewayHttpCall {
  token: string;
  apiUrl: string;
  body?: unknown;
}

/** Serves the gateway over Streamable HTTP, one MCP server per session, sessions bound to tokens. */
export interface GatewayHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse, call: GatewayHttpCall): Promise<void>;
  readonly size: number;
  /** Closes every session and disconnects the upstreams. */
  close(): Promise<void>;
}

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  tokenHash: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A JSON-RPC error answer (or the end of a response already under way). */
export function replyError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Creates the handler that `gatehouse mcp proxy --http` and the Gatehouse server both mount. */
export function createGatewayHttpHandler(options: GatewayHttpHandlerOptions): GatewayHttpHandler {
  const log = options.log ?? SILENT_LOGGER;
  const maxSessions = options.maxSessions ?? 100;
  const sessions = new Map<string, Session>();
  let pool: Promise<UpstreamPool> | null = null;

  function upstreams(): Promise<UpstreamPool> {
    pool ??= options.connect().catch((error: unknown) => {
      pool = null;
      throw error;
    });
    return pool;
  }

  function gateFor(call: GatewayHttpCall): ToolGateOptions {
    return {
      api: new GatehouseApi({ url: call.apiUrl, token: call.token }),
      runId: options.runId ?? null,
      progressIntervalMs: options.progressIntervalMs ?? 5_000,
      callTimeoutMs: options.callTimeoutMs ?? 600_000,
      log,
    };
  }

  async function open(req: IncomingMessage, res: ServerResponse, call: GatewayHttpCall): Promise<void> {
    if (sessions.size >= maxSessions) return replyError(res, 503, 'too many open sessions; try again later');
    const gate = gateFor(call);
    if (options.verifyToken !== false) {
      const accepted = await gate.api.me().then(
        () => true,
        () => false,
      );
      if (!accepted) return replyError(res, 401, 'Gatehouse did not accept the bearer token');
    }
    let connected: UpstreamPool;
    try {
      connected = await upstreams();
    } catch (error) {
      log.error({ err: error }, 'gateway upstreams unreachable');
      return replyError(res, 502, (error as Error).message);
    }
    const server = createGatewayServer(connected, gate, options.version);
    const allowedHosts = options.allowedHosts?.() ?? null;
    const session: Session = {
      server,
      tokenHash: hashOf(call.token),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        ...(allowedHosts === null ? {} : { enableDnsRebindingProtection: true, allowedHosts }),
        onsessioninitialized: (id) => void sessions.set(id, session),
        onsessionclosed: (id) => void sessions.delete(id),
      }),
    };
    await server.connect(session.transport);
    await session.transport.handleRequest(req, res, call.body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, call: GatewayHttpCall): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // Another token's session looks like an unknown one: a session id is never confirmed.
      if (!session || session.tokenHash !== hashOf(call.token))
        return replyError(res, 404, 'Session not found');
      return session.transport.handleRequest(req, res, call.body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(call.body)) {
      return replyError(res, 400, 'send initialize first, then the Mcp-Session-Id it returns');
    }
    return open(req, res, call);
  }

  return {
    async handle(req, res, call) {
      try {
        await handle(req, res, call);
      } catch (error) {
        log.error({ err: error }, 'gateway request failed');
        replyError(res, 500, 'internal error');
      }
    },
    get size() {
      return sessions.size;
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((session) => session.server.close()));
      const connected = await pool?.catch(() => null);
      await connected?.close();
    },
  };
}
