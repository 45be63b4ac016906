import {
  call,
  errorFromResponse,
  type RouteDefinition,
  type RouteInput,
  type RouteResult,
  type Transport,
} from 'gatehouse-hitl-protocol';
import { CliError } from './errors.js';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A small JSON client for the Gatehouse API: bearer token in, wire errors out as ApiError. */
export interface ApiClient {
  readonly url: string;
  /** Calls a route of the protocol's table: its path, input and result are typed by the route. */
  call<R extends RouteDefinition>(route: R, ...input: RouteArgs<R>): Promise<RouteResult<R>>;
  /** The raw response of a successful GET (streams, JSON Lines); errors still throw ApiError. */
  open(path: string, options?: RequestOptions): Promise<Response>;
}

/** A route's input, optional when the route needs none. */
export type RouteArgs<R extends RouteDefinition> =
  Record<never, never> extends RouteInput<R> ? [input?: RouteInput<R>] : [input: RouteInput<R>];

export interface ClientOptions {
  url: string;
  /** Omitted for calls that need no credential (sign-in). */
  token?: string | null;
  fetch?: typeof fetch;
}

/** A path + `{ status: 'pending' }` → the path with `?status=pending`; undefined values are left out. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

function unreachable(url: string, error: unknown): CliError {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const reason = typeof cause?.code === 'string' ? cause.code : String(cause?.message ?? error);
  return new CliError(
    `cannot reach the Gatehouse server at ${url} (${reason}); is \`gatehouse serve\` running?`,
    'SERVER_UNREACHABLE',
  );
}

/** Creates a client for `url`, sending `token` as a bearer credential when given. */
export function createApiClient(options: ClientOptions): ApiClient {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function send(method: string, path: string, request: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(`${base}${withQuery(path, request.query)}`, {
        method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw unreachable(base, error);
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async function request(method: string, path: string, request: RequestOptions = {}): Promise<unknown> {
    const response = await send(method, path, request);
    const text = await response.text();
    return text === '' ? undefined : JSON.parse(text);
  }

  const transport: Transport = (built, signal) =>
    request(built.method, built.path, {
      ...(built.body === undefined ? {} : { body: built.body }),
      ...(built.headers ? { headers: built.headers } : {}),
      ...(signal ? { signal: signal as AbortSignal } : {}),
    });

  return {
    url: base,
    call: (route, ...input) => call(transport, route, ...(input as [RouteInput<typeof route>])),
    open: (path, request = {}) => send('GET', path, request),
  };
}
