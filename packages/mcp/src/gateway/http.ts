import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SILENT_LOGGER } from '../context.js';
import { GATEWAY_VERSION, type GatewayOptions, type RunningGateway } from './gateway.js';
import { createGatewayHttpHandler, replyError } from './http-handler.js';
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

const MAX_BODY_BYTES = 4 * 1024 * 1024;

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
  // Connected before listening, so an unreachable upstream stops the command at once.
  const pool = await UpstreamPool.connect(options.upstreams, GATEWAY_VERSION);
  let allowedHosts: string[] = [];
  const handler = createGatewayHttpHandler({
    connect: async () => pool,
    version: GATEWAY_VERSION,
    runId: options.runId ?? null,
    progressIntervalMs: options.progressIntervalMs ?? 5_000,
    callTimeoutMs: options.callTimeoutMs ?? 600_000,
    maxSessions: options.maxSessions ?? 100,
    allowedHosts: () => allowedHosts,
    log,
  });
  const http = createServer((req, res) => {
    const serve = async () => {
      if (new URL(req.url ?? '/', 'http://gateway').pathname !== '/mcp') {
        return replyError(res, 404, 'not found; use /mcp');
      }
      const token = bearerOf(req);
      if (token === null) return replyError(res, 401, 'send Authorization: Bearer <your Gatehouse token>');
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      await handler.handle(req, res, { token, apiUrl: options.url, body });
    };
    serve().catch((error: unknown) => {
      if (error instanceof SyntaxError || error instanceof RangeError)
        return replyError(res, 400, error.message);
      log.error({ err: error }, 'gateway request failed');
      replyError(res, 500, 'internal error');
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 7310, host, () => resolve());
    });
  } catch (error) {
    await pool.close();
    throw error;
  }
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
        await handler.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        done();
      })();
      return closing;
    },
  };
}
