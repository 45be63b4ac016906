import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type McpLogger, SILENT_LOGGER } from './context.js';
import { createGatehouseMcpServer } from './server.js';

/** Options of the Streamable HTTP handler. */
export interface McpHttpOptions {
  log?: McpLogger;
  /**
   * Open sessions at most; a new session beyond it is refused with 503 until one ends.
   * @default 1000
   */
  maxSessions?: number;
  /**
   * A session without requests for this long is closed.
   * @default 1800000 (30 minutes)
   */
  idleMs?: number;
  /** @default Date.now */
  now?: () => number;
  /**
   * The web app's public base URL: a client that declares URL-mode elicitation is sent to a pending
   * gate's page there while a tool waits. Null (the default) never sends one.
   * @default null
   */
  gatePages?: string | null;
}

/** One HTTP request to `/mcp`, after the host authenticated its bearer token. */
export interface McpHttpCall {
  /** The caller's bearer token; every API call of the session is made with it. */
  token: string;
  /** Where the Gatehouse API answers for this process, e.g. `http://127.0.0.1:7300`. */
  apiUrl: string;
  /** The parsed JSON body of a POST. */
  body?: unknown;
}

/** Serves MCP over Streamable HTTP, one MCP server per session. */
export interface McpHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse, call: McpHttpCall): Promise<void>;
  /** Open sessions. */
  readonly size: number;
  /** Closes every session and stops the idle sweep. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** Sessions are bound to the token that opened them: another token cannot use them. */
  tokenHash: string;
  lastSeen: number;
  inFlight: number;
}

const SWEEP_EVERY_MS = 60_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * Creates the Streamable HTTP handler: sessions (`Mcp-Session-Id`) live in this process, each bound
 * to the bearer token that opened it; a token that is revoked stops working at its next request,
 * because the host authenticates every request and every API call carries the token.
 */
export function createMcpHttpHandler(options: McpHttpOptions = {}): McpHttpHandler {
  const log = options.log ?? SILENT_LOGGER;
  const maxSessions = options.maxSessions ?? 1000;
  const idleMs = options.idleMs ?? 30 * 60_000;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, Session>();

  function closeSession(id: string, session: Session): void {
    sessions.delete(id);
    session.server
      .close()
      .catch((error: unknown) => log.warn({ err: error, sessionId: id }, 'MCP close failed'));
  }

  function sweep(): void {
    for (const [id, session] of sessions) {
      if (session.inFlight === 0 && now() - session.lastSeen > idleMs) closeSession(id, session);
    }
  }
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.unref();

  async function serve(session: Session, req: IncomingMessage, res: ServerResponse, body: unknown) {
    session.inFlight++;
    session.lastSeen = now();
    try {
      await session.transport.handleRequest(req, res, body);
    } finally {
      session.inFlight--;
      session.lastSeen = now();
    }
  }

  async function open(req: IncomingMessage, res: ServerResponse, call: McpHttpCall): Promise<void> {
    sweep();
    if (sessions.size >= maxSessions) {
      jsonRpcError(res, 503, -32000, 'too many open MCP sessions; try again later');
      return;
    }
    const server = createGatehouseMcpServer({
      url: call.apiUrl,
      token: call.token,
      gatePages: options.gatePages ?? null,
      log,
    });
    const session: Session = {
      server,
      tokenHash: hashOf(call.token),
      lastSeen: now(),
      inFlight: 0,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, session);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      }),
    };
    await server.connect(session.transport);
    await serve(session, req, res, call.body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, call: McpHttpCall): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // An unknown session and another token's session look the same: never confirm a session id.
      if (!session || session.tokenHash !== hashOf(call.token)) {
        jsonRpcError(res, 404, -32001, 'Session not found');
        return;
      }
      await serve(session, req, res, call.body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(call.body)) {
      jsonRpcError(
        res,
        400,
        -32000,
        'Bad Request: send initialize first, then the Mcp-Session-Id it returns',
      );
      return;
    }
    await open(req, res, call);
  }

  return {
    async handle(req, res, call) {
      try {
        await handle(req, res, call);
      } catch (error) {
        log.error({ err: error }, 'MCP request failed');
        jsonRpcError(res, 500, -32603, 'internal error');
      }
    },
    get size() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweeper);
      const open = [...sessions];
      sessions.clear();
      await Promise.allSettled(open.map(([, session]) => session.server.close()));
    },
  };
}
