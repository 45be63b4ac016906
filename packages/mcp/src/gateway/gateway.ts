import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { GatehouseApi } from '../api.js';
import { type McpLogger, SILENT_LOGGER } from '../context.js';
import { oneSendAtATime } from '../one-send-at-a-time.js';
import type { UpstreamConfig } from './config.js';
import { createGatewayServer } from './server.js';
import type { ToolGateOptions } from './tool-call.js';
import { UpstreamPool } from './upstreams.js';

/** The version the gateway reports to clients and upstreams. */
export const GATEWAY_VERSION = '0.1.0';

/** What every gateway is built from. */
export interface GatewayOptions {
  /** The upstream MCP servers it fronts. */
  upstreams: UpstreamConfig[];
  /** The Gatehouse server. */
  url: string;
  /** The run every tool call belongs to. @default null */
  runId?: string | null;
  /** @default 5000 */
  progressIntervalMs?: number;
  /** @default 600000 (10 minutes) */
  callTimeoutMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  log?: McpLogger;
}

/** How a token's tool calls are gated. */
export function gateOptionsFor(options: GatewayOptions, token: string): ToolGateOptions {
  return {
    api: new GatehouseApi({ url: options.url, token, ...(options.fetch ? { fetch: options.fetch } : {}) }),
    runId: options.runId ?? null,
    progressIntervalMs: options.progressIntervalMs ?? 5_000,
    callTimeoutMs: options.callTimeoutMs ?? 600_000,
    log: options.log ?? SILENT_LOGGER,
  };
}

/** Options of `serveGatewayStdio`. */
export interface GatewayStdioOptions extends GatewayOptions {
  /** The agent's token every policy request is made with. */
  token: string;
  /** @default process.stdin */
  stdin?: Readable;
  /** Only MCP messages may be written here. @default process.stdout */
  stdout?: Writable;
}

/** A running gateway. */
export interface RunningGateway {
  /** Settles when the client hangs up or `close` is called. */
  closed: Promise<void>;
  /** Stops serving and disconnects every upstream (stdio upstreams are stopped). */
  close(): Promise<void>;
}

/**
 * Serves the gateway on stdin/stdout (`gatehouse mcp proxy`): connects the upstreams first, so a
 * client never sees a half-connected gateway, then answers until stdin ends.
 *
 * @example
 * const gateway = await serveGatewayStdio({ upstreams, url: 'http://127.0.0.1:7300', token });
 * await gateway.closed;
 */
export async function serveGatewayStdio(options: GatewayStdioOptions): Promise<RunningGateway> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const pool = await UpstreamPool.connect(options.upstreams, GATEWAY_VERSION);
  const server = createGatewayServer(pool, gateOptionsFor(options, options.token), GATEWAY_VERSION);
  const transport = oneSendAtATime(new StdioServerTransport(stdin, stdout));
  let done: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  let closing: Promise<void> | null = null;
  const close = () => {
    // The work starts once `closing` is set: server.close() calls transport.onclose, which calls close() again.
    closing ??= Promise.resolve().then(async () => {
      stdin.off('end', onEnd);
      await server.close();
      await pool.close();
      done();
    });
    return closing;
  };
  const onEnd = () => {
    void close();
  };
  transport.onclose = () => {
    void close();
  };
  stdin.once('end', onEnd);
  try {
    await server.connect(transport);
  } catch (error) {
    await pool.close();
    throw error;
  }
  return { closed, close };
}
