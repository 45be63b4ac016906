import { type ErrorResponse, errorFromResponse } from '../wire-error.js';
import {
  type RouteDefinition,
  type RouteInput,
  type RouteRequest,
  type RouteResult,
  routeRequest,
} from './define.js';

/** The part of an AbortSignal a transport passes on (the protocol package assumes no DOM). */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

/** The part of `fetch` a transport uses, so any WHATWG fetch fits. */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    // biome-ignore lint/suspicious/noExplicitAny: the DOM's AbortSignal is not in this package's types
    signal?: any;
    credentials?: 'include' | 'same-origin' | 'omit';
  },
) => Promise<ErrorResponse & { ok: boolean }>;

/** Sends one built request and returns the decoded JSON body (undefined when empty). */
export type Transport = (request: RouteRequest, signal?: AbortSignalLike) => Promise<unknown>;

/** Calls `route` through `transport`: the path, the input and the result are typed by the route. */
export async function call<R extends RouteDefinition>(
  transport: Transport,
  route: R,
  ...[input, signal]: Record<never, never> extends RouteInput<R>
    ? [input?: RouteInput<R>, signal?: AbortSignalLike]
    : [input: RouteInput<R>, signal?: AbortSignalLike]
): Promise<RouteResult<R>> {
  return (await transport(routeRequest(route, (input ?? {}) as RouteInput<R>), signal)) as RouteResult<R>;
}

export interface FetchTransportOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:7400`. */
  url: string;
  /** Sent as a bearer credential when given. */
  token?: string | null;
  fetch?: FetchLike;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Cookies instead of a bearer token (the web app). */
  credentials?: 'include' | 'same-origin' | 'omit';
}

/** A transport over `fetch`: JSON in, JSON out, non-2xx answers thrown as GatehouseApiError. */
export function fetchTransport(options: FetchTransportOptions): Transport {
  const base = options.url.replace(/\/+$/, '');
  const doFetch: FetchLike =
    options.fetch ?? ((url, init) => (globalThis as unknown as { fetch: FetchLike }).fetch(url, init));
  return async (request, signal) => {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.headers,
      ...request.headers,
    };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const response = await doFetch(`${base}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(signal ? { signal } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
    if (!response.ok) throw await errorFromResponse(response);
    const text = await response.text();
    return text === '' ? undefined : JSON.parse(text);
  };
}
