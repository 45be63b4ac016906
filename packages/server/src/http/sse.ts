import type { FastifyReply } from 'fastify';
import type { StreamEvent } from 'gatehouse-hitl-store';

/** One open Server-Sent Events response. */
export interface SseSink {
  /** Writes one event as `id: <seq>`, `event: <type>`, `data: <json>`. */
  send(event: StreamEvent): void;
  /** A comment line that keeps proxies and clients from timing the stream out. */
  heartbeat(): void;
  end(): void;
  readonly closed: boolean;
  /** Called once when the stream ends, from either side. */
  onClose(listener: () => void): void;
}

/** A client that reads this slowly is dropped; it reconnects with Last-Event-ID and misses nothing. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The headers of an event stream: no caching, no proxy buffering. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

/** The wire text of one event; the data is the stored event as JSON (one line: JSON escapes line breaks). */
export function formatSseEvent(event: StreamEvent): string {
  const type = event.type.replace(/[^\w.:-]/g, '_');
  return `id: ${event.seq}\nevent: ${type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Takes the reply over from Fastify and opens an event stream on it, with a `retry:` hint. */
export function openSse(reply: FastifyReply, options: { retryMs: number }): SseSink {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, SSE_HEADERS);
  raw.write(`retry: ${options.retryMs}\n: connected\n\n`);
  let closed = false;
  const listeners: (() => void)[] = [];
  const finish = () => {
    if (closed) return;
    closed = true;
    for (const listener of listeners.splice(0)) listener();
  };
  raw.on('close', finish);
  raw.on('error', finish);
  const end = () => {
    if (!raw.writableEnded) raw.end();
    finish();
  };
  const write = (text: string) => {
    if (closed) return;
    if (raw.writableLength > MAX_BUFFERED_BYTES) end();
    else raw.write(text);
  };
  return {
    send: (event) => write(formatSseEvent(event)),
    heartbeat: () => write(': heartbeat\n\n'),
    end,
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}
