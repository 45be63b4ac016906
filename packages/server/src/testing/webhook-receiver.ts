import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

/** One request the receiver got, and how it answered (null while held open or cut off). */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  status: number | null;
}

/** How the receiver answers a request: a status (and body), or `hold` to never answer. */
export type ReceiverReply = { status: number; body?: string } | 'hold';

/** A real HTTP server on 127.0.0.1 that records every webhook request. */
export interface WebhookReceiver {
  readonly url: string;
  readonly received: readonly ReceivedWebhook[];
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** Starts a receiver; `reply` picks each answer from the request and its index (0 for the first). */
export async function startWebhookReceiver(
  reply: (request: ReceivedWebhook, index: number) => ReceiverReply = () => ({ status: 200 }),
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry: ReceivedWebhook = { headers: request.headers, body, at: Date.now(), status: null };
      const answer = reply(entry, received.length);
      received.push(entry);
      for (const waiter of waiters) waiter();
      if (answer === 'hold') return;
      entry.status = answer.status;
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/gatehouse`,
    received,
    waitFor(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...received]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Low ports no server of the suite binds (`listen(0)` picks from the ephemeral range above 32768),
 * none of them on the fetch standard's list of ports a client must refuse to call.
 */
const UNBOUND_PORT_CANDIDATES = [3, 4, 5, 6, 8, 10, 12, 14, 16, 18];

/**
 * A 127.0.0.1 port where nothing listens, so connections are refused. A port another server just
 * released would not do: with files running side by side, the next `listen(0)` may take it, and
 * calls meant to be refused would reach that server instead.
 */
export async function refusedPort(): Promise<number> {
  for (const port of UNBOUND_PORT_CANDIDATES) if (await refuses(port)) return port;
  throw new Error(`every candidate port is in use on 127.0.0.1: ${UNBOUND_PORT_CANDIDATES.join(', ')}`);
}

/** A 127.0.0.1 URL where nothing listens: connections are refused. */
export async function refusingUrl(): Promise<string> {
  return `http://127.0.0.1:${await refusedPort()}/hooks/gone`;
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
