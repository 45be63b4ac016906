import type { LightRoute, RouteDefinition, RouteInput, RouteResult } from 'gatehouse-hitl-protocol/rules';
import {
  decodeWireError,
  errorFromResponse,
  GatehouseApiError,
  routeRequest,
} from 'gatehouse-hitl-protocol/rules';
import { abortReason, type Backoff, backoffDelay, linkSignals, sleep } from './backoff.js';

/**
 * When a call may be sent again: `always` for idempotent calls (reads, keyed gate requests);
 * `safe` only where the first attempt surely changed nothing (connection refused, 503, 429).
 */
export type RetryMode = 'always' | 'safe';

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  retry: RetryMode;
  /** Abort one attempt after this long (long-polls pass their hold time plus a margin). */
  attemptTimeoutMs?: number;
  /** Also retry these refusals, e.g. RUN_NOT_ACTIVE while a run is paused. */
  retryWhen?: (error: GatehouseApiError) => boolean;
}

export interface TransportOptions {
  url: string;
  token: string;
  fetch: typeof fetch;
  backoff: Backoff;
  onRetry?: ((info: { attempt: number; delayMs: number; error: unknown }) => void) | undefined;
}

const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;
/** A 500 is a bug, not a restart: retried a few times, never forever. */
const MAX_INTERNAL_RETRIES = 3;

class NetworkError extends Error {
  override name = 'NetworkError';
}

/** True for fetch failures where the connection was refused, so the request never reached a server. */
function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; cause?: { code?: unknown } } }).cause;
  const code = cause?.code ?? cause?.cause?.code;
  return code === 'ECONNREFUSED';
}

/** Talks JSON to the server with the bearer token, retrying per the call's mode. */
export class Transport {
  readonly #options: TransportOptions;
  readonly #base: string;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#base = options.url.replace(/\/+$/, '');
  }

  /** Sends `call` until it succeeds, fails for good, runs out of time, or the signal aborts. */
  async json(call: Call): Promise<unknown> {
    const started = Date.now();
    let internalErrors = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(call);
      } catch (error) {
        if (call.signal?.aborted) throw abortReason(call.signal);
        if (error instanceof GatehouseApiError && error.code === 'INTERNAL') internalErrors++;
        if (!this.#retryable(call, error) || internalErrors > MAX_INTERNAL_RETRIES)
          throw publicError(error, this.#base);
        const delayMs = backoffDelay(attempt, this.#options.backoff);
        if (Date.now() - started + delayMs > this.#options.backoff.maxElapsedMs)
          throw publicError(error, this.#base);
        this.#options.onRetry?.({ attempt: attempt + 1, delayMs, error: publicError(error, this.#base) });
        await sleep(delayMs, call.signal);
      }
    }
  }

  /** Sends a route of the protocol's table under `options` (retry mode, timeouts): typed by the route. */
  route<R extends RouteDefinition>(
    route: LightRoute<R>,
    input: RouteInput<R>,
    options: Omit<Call, 'method' | 'path' | 'body'>,
  ): Promise<RouteResult<R>> {
    const request = routeRequest(route, input);
    return this.json({
      ...options,
      method: request.method as Call['method'],
      path: request.path,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.headers || options.headers ? { headers: { ...options.headers, ...request.headers } } : {}),
    }) as Promise<RouteResult<R>>;
  }

  /** Opens a streaming GET once (no retries); non-2xx answers throw their GatehouseApiError. */
  async stream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await this.#options.fetch(`${this.#base}${path}`, {
        method: 'GET',
        headers: { ...this.#headers(), accept: 'text/event-stream', ...headers },
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      throw publicError(new NetworkError('fetch failed', { cause: error }), this.#base);
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  /** True when `error` (from an attempt) is worth another try under the call's mode. */
  #retryable(call: Call, error: unknown): boolean {
    if (error instanceof NetworkError) return call.retry === 'always' || isConnectionRefused(error);
    if (!(error instanceof GatehouseApiError)) return false;
    if (error.status === 503 || error.status === 429) return true;
    if (call.retryWhen?.(error)) return true;
    return call.retry === 'always' && error.status >= 500;
  }

  async #attempt(call: Call): Promise<unknown> {
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new NetworkError('the server did not answer in time')),
      call.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    );
    const linked = linkSignals(call.signal, timeout.signal);
    try {
      const init: RequestInit = { method: call.method, headers: this.#headers(call), signal: linked.signal };
      if (call.body !== undefined) init.body = JSON.stringify(call.body);
      const response = await this.#options.fetch(`${this.#base}${call.path}`, init);
      const text = await response.text();
      if (!response.ok) {
        const retryAfter = response.headers.get('retry-after');
        throw decodeWireError(response.status, text, { statusText: response.statusText, retryAfter });
      }
      return parseBody(response.status, text);
    } catch (error) {
      if (error instanceof GatehouseApiError || call.signal?.aborted) throw error;
      throw new NetworkError('fetch failed', { cause: error });
    } finally {
      clearTimeout(timer);
      linked.dispose();
    }
  }

  #headers(call?: Call): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#options.token}`,
      ...call?.headers,
    };
    if (call?.body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }
}

/**
 * A successful answer's JSON. Every route of the protocol answers with a JSON body, so an empty or
 * unreadable one is not a Gatehouse answer (another server on the address, say) and is not retried.
 */
function parseBody(status: number, text: string): unknown {
  const refuse = (what: string) =>
    new GatehouseApiError('INTERNAL', `the server answered ${status} with ${what}`, { status });
  if (text === '') throw refuse('an empty body');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refuse('a body that is not JSON');
  }
}

/** What the caller sees: wire errors as they are, network failures as SERVICE_UNAVAILABLE with status 0. */
function publicError(error: unknown, base: string): unknown {
  if (!(error instanceof NetworkError)) return error;
  const cause = error.cause ?? error;
  const detail =
    cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : '';
  return new GatehouseApiError(
    'SERVICE_UNAVAILABLE',
    `cannot reach the Gatehouse server at ${base}: ${detail}`,
    {
      status: 0,
      details: { url: base },
      cause,
    },
  );
}
