import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** A 127.0.0.1 URL where nothing listens: connections are refused. */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks/gone`;
}
