import { connect as connectTcp } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  decodeWireError,
  fillPath,
  GatehouseApiError,
  type HttpMethod,
  type LightRoute,
  queryString,
} from 'gatehouse-hitl-protocol/rules';

/** The server could not be reached at all (refused, no route, DNS, TLS). */
export class Unreachable extends Error {
  override name = 'Unreachable';
}

/** The hook's time ran out before the server answered. */
export class OutOfTime extends Error {
  override name = 'OutOfTime';
}

/** The server answered with an error: the protocol's wire error, with its code, message and status. */
export { GatehouseApiError as ServerRefused };

/**
 * The few JSON calls the hook makes. It speaks plain HTTP/1.1 over a socket, one request per
 * connection: node:http alone costs the hook a tenth of its start-up, and it starts before every tool call.
 */
export interface HookHttp {
  call<T>(
    method: HttpMethod,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<T>;
  /** Calls one of the protocol's light routes: its path filled from `params`, then `query`. */
  route<T>(
    route: LightRoute,
    input?: {
      params?: Record<string, string>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
    },
  ): Promise<T>;
  /** Opens the connection the first call will use, while the caller is still busy. */
  preconnect(): void;
  close(): void;
}

interface Target {
  secure: boolean;
  host: string;
  port: number;
  /** The Host header. */
  authority: string;
  /** The server address's path, prepended to every call's path. */
  prefix: string;
}

const HEADER_VALUE = /^[\x20-\x7e]*$/;

function targetOf(baseUrl: string): Target {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  return {
    secure,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || (secure ? 443 : 80)),
    authority: url.host,
    prefix: url.pathname.replace(/\/+$/, ''),
  };
}

async function open(target: Target): Promise<Duplex> {
  if (!target.secure) return connectTcp({ host: target.host, port: target.port });
  // TLS is loaded only when the server address asks for it.
  const tls = await import('node:tls');
  const servername = /^[\d.]+$|:/.test(target.host) ? undefined : target.host;
  return tls.connect({ host: target.host, port: target.port, ...(servername ? { servername } : {}) });
}

function requestBytes(
  target: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  const all: Record<string, string> = {
    Host: target.authority,
    Accept: 'application/json',
    Connection: 'close',
    ...headers,
    ...(payload === undefined
      ? {}
      : { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) }),
  };
  let head = `${method} ${target.prefix}${path} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(all)) {
    if (!HEADER_VALUE.test(value))
      throw new GatehouseApiError('BAD_HEADER', `the ${name} header holds characters HTTP does not allow`);
    head += `${name}: ${value}\r\n`;
  }
  const start = Buffer.from(`${head}\r\n`, 'latin1');
  return payload === undefined ? start : Buffer.concat([start, payload]);
}

function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size <= 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Status and body of a complete response, or null while more bytes are needed. */
function parseResponse(bytes: Buffer, ended: boolean): { status: number; text: string } | null {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const lines = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers = new Map(
    lines.slice(1).map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  const raw = bytes.subarray(split + 4);
  const length = headers.get('content-length');
  if (length !== undefined) {
    if (raw.length < Number(length)) return null;
    return { status, text: raw.subarray(0, Number(length)).toString('utf8') };
  }
  if (!ended) return null;
  const chunked = /chunked/i.test(headers.get('transfer-encoding') ?? '');
  return { status, text: (chunked ? dechunk(raw) : raw).toString('utf8') };
}

function exchange(
  socket: Duplex,
  request: Buffer,
  signal: AbortSignal,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const finish = (ended: boolean) => {
      const answer = parseResponse(Buffer.concat(chunks), ended);
      if (answer === null && !ended) return;
      cleanup();
      socket.destroy();
      if (answer === null || answer.status === 0)
        reject(new GatehouseApiError('BAD_RESPONSE', 'the server did not answer in HTTP'));
      else resolve(answer);
    };
    const onAbort = () => {
      cleanup();
      socket.destroy();
      reject(new OutOfTime('no answer in time'));
    };
    const onError = (error: NodeJS.ErrnoException) => {
      cleanup();
      reject(
        signal.aborted ? new OutOfTime('no answer in time') : new Unreachable(error.code ?? error.message),
      );
    };
    const cleanup = () => {
      signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', onError);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      finish(false);
    });
    socket.on('end', () => finish(true));
    socket.write(request);
  });
}

function answerOf<T>(status: number, text: string): T {
  if (status < 200 || status >= 300) throw decodeWireError(status, text);
  try {
    return (text === '' ? undefined : JSON.parse(text)) as T;
  } catch {
    throw new GatehouseApiError('BAD_RESPONSE', 'the server answered with something that is not JSON', {
      status,
    });
  }
}

/** Creates a client for `baseUrl` that sends `token` and gives up when `signal` aborts. */
export function createHookHttp(baseUrl: string, token: string, signal: AbortSignal): HookHttp {
  const target = targetOf(baseUrl);
  const sockets = new Set<Duplex>();
  let early: Promise<Duplex> | null = null;

  function connect(): Promise<Duplex> {
    const opening = open(target).then((socket) => {
      sockets.add(socket);
      // Kept until a call listens: a refused connection is reported by that call.
      socket.on('error', () => {});
      return socket;
    });
    opening.catch(() => {});
    return opening;
  }

  const http: HookHttp = {
    preconnect() {
      early ??= connect();
    },
    route(route, input = {}) {
      const path = fillPath(route.path, input.params) + queryString(input.query);
      return http.call(route.method, path, {
        ...(input.body === undefined ? {} : { body: input.body }),
        ...(input.headers === undefined ? {} : { headers: input.headers }),
      });
    },
    async call<T>(
      method: HttpMethod,
      path: string,
      options: { body?: unknown; headers?: Record<string, string> } = {},
    ) {
      const headers = { Authorization: `Bearer ${token}`, ...options.headers };
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const request = requestBytes(target, method, path, headers, body);
      const opening = early ?? connect();
      early = null;
      const socket = await opening;
      if (socket.destroyed && socket.errored) {
        const error = socket.errored as NodeJS.ErrnoException;
        throw signal.aborted
          ? new OutOfTime('no answer in time')
          : new Unreachable(error.code ?? error.message);
      }
      const { status, text } = await exchange(socket, request, signal);
      return answerOf<T>(status, text);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      void early?.then(
        (socket) => socket.destroy(),
        () => {},
      );
    },
  };
  return http;
}
