import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { oneSendAtATime } from './one-send-at-a-time.js';
import { createGatehouseMcpServer, type GatehouseMcpOptions } from './server.js';

/** Options of `serveStdio`: the server's, plus the streams to speak on. */
export interface StdioOptions extends GatehouseMcpOptions {
  /** @default process.stdin */
  stdin?: Readable;
  /** Only MCP messages may be written here. @default process.stdout */
  stdout?: Writable;
}

/** A running stdio MCP server. */
export interface StdioServer {
  /** Settles when the client hangs up (stdin ends) or `close` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the Gatehouse MCP server on stdin/stdout, for MCP clients that start it as a process
 * (`gatehouse mcp`). Stops when stdin ends.
 *
 * @example
 * const server = await serveStdio({ url: 'http://127.0.0.1:7300', token: process.env.GATEHOUSE_TOKEN! });
 * await server.closed;
 */
export async function serveStdio(options: StdioOptions): Promise<StdioServer> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = createGatehouseMcpServer(options);
  const transport = oneSendAtATime(new StdioServerTransport(stdin, stdout));
  let done: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  transport.onclose = () => done();
  const close = async () => {
    stdin.off('end', onEnd);
    await server.close();
    done();
  };
  const onEnd = () => {
    void close();
  };
  stdin.once('end', onEnd);
  await server.connect(transport);
  return { closed, close };
}
