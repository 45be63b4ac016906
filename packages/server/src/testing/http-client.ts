import { Agent, type IncomingHttpHeaders, request } from 'node:http';

/** Parsed JSON from the API; tests read into it freely. */
// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
export type Json = any;

/** One answered request, with the client's clock when it was sent and when it was answered. */
export interface HttpResult {
  status: number;
  body: Json;
  headers: IncomingHttpHeaders;
  /** `Date.now()` just before the request was handed to the socket. */
  sentAt: number;
  answeredAt: number;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Abort the request this many ms after sending it (a lost answer); the call then rejects. */
  abortAfterMs?: number;
  /** Send from this local address (any of 127.0.0.0/8 on loopback), as another client would. */
  from?: string;
}

/** A keep-alive HTTP client for one server, with a bounded socket pool. */
export interface HttpClient {
  readonly url: string;
  call(method: string, path: string, options?: CallOptions): Promise<HttpResult>;
  /** Every item of a paged list (`{ items, nextCursor }`), following `cursor`. */
  all(path: string, token: string): Promise<Json[]>;
  close(): void;
}

/** Creates a client for `url` (e.g. `http://127.0.0.1:7300`) holding at most `maxSockets` connections. */
export function createHttpClient(url: string, options: { maxSockets?: number } = {}): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 32 });
  const base = new URL(url);

  function call(method: string, path: string, opts: CallOptions = {}): Promise<HttpResult> {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          headers,
          agent,
          ...(opts.from === undefined ? {} : { localAddress: opts.from }),
        },
        (response) => {
          clearTimeout(timer);
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('error', reject);
          response.on('end', () => {
            let body: Json = text;
            try {
              body = text === '' ? null : JSON.parse(text);
            } catch {
              // not JSON (e.g. the export): the text itself
            }
            resolve({
              status: response.statusCode ?? 0,
              body,
              headers: response.headers,
              sentAt,
              answeredAt: Date.now(),
            });
          });
        },
      );
      req.on('error', reject);
      const sentAt = Date.now();
      if (opts.abortAfterMs !== undefined) {
        timer = setTimeout(() => req.destroy(new Error('aborted by the test')), opts.abortAfterMs);
      }
      req.end(payload);
    });
  }

  async function all(path: string, token: string): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10_000; page++) {
      const separator = path.includes('?') ? '&' : '?';
      const url = cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`;
      const { status, body } = await call('GET', url, { token });
      if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${JSON.stringify(body)}`);
      items.push(...body.items);
      cursor = body.nextCursor;
      if (cursor === null) return items;
    }
    throw new Error(`GET ${path} did not end`);
  }

  return { url, call, all, close: () => agent.destroy() };
}

/** Runs `work` over `items` with at most `concurrency` at a time; results in item order. */
export async function inPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** A copy of `items` in random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
