import type { ErrorCode } from './error-codes.js';

/** A code from docs/errors.md, or one a newer server may send. */
export type ApiErrorCode = ErrorCode | (string & {});

/** Options of a GatehouseApiError besides its code and message. */
export interface ApiErrorOptions {
  /** The HTTP status, or 0 when no response arrived. @default 0 */
  status?: number | undefined;
  details?: Record<string, unknown> | undefined;
  /** How long the server asked the caller to wait before trying again. */
  retryAfterMs?: number | null | undefined;
  cause?: unknown;
}

/**
 * An error the Gatehouse server returned (or a refusal a client made on its behalf), rebuilt from
 * the wire shape `{ error: { code, message, details } }` with the same stable `code`.
 * @example
 * try { await gate.completeRun(runId); }
 * catch (error) { if (isGatehouseApiError(error, 'RUN_STOPPED')) stopWorking(); }
 */
export class GatehouseApiError extends Error {
  readonly code: ApiErrorCode;
  /** The HTTP status, or 0 when no response arrived. */
  readonly status: number;
  readonly details: Readonly<Record<string, unknown>>;
  /** From `Retry-After` (or the details' retryAfterSeconds); null when the server named no wait. */
  readonly retryAfterMs: number | null;

  constructor(code: ApiErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatehouseApiError';
    this.code = code;
    this.status = options.status ?? 0;
    this.details = options.details ?? {};
    this.retryAfterMs = options.retryAfterMs ?? null;
  }

  /** The request field the server named (`details.field`), e.g. `instructions`; null when none. */
  get field(): string | null {
    const field = this.details.field;
    return typeof field === 'string' ? field : null;
  }
}

/** True when `value` is a GatehouseApiError, optionally with the given code. */
export function isGatehouseApiError(value: unknown, code?: ApiErrorCode): value is GatehouseApiError {
  return value instanceof GatehouseApiError && (code === undefined || value.code === code);
}

/** What came back besides the body: the status line's text and the `Retry-After` header. */
export interface WireErrorContext {
  statusText?: string | undefined;
  retryAfter?: string | null | undefined;
  /** Reads an HTTP-date `Retry-After` against this time. @default Date.now() */
  now?: number | undefined;
}

const SNIPPET_MAX = 200;

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function fallbackCode(status: number): ApiErrorCode {
  if (status === 503) return 'SERVICE_UNAVAILABLE';
  if (status === 429) return 'RATE_LIMITED';
  return status >= 500 ? 'INTERNAL' : `HTTP_${status}`;
}

/** `Retry-After` as seconds or an HTTP date, else the details' seconds or milliseconds; null when absent. */
export function retryAfterMsOf(
  header: string | null | undefined,
  details: Readonly<Record<string, unknown>> = {},
  now: number = Date.now(),
): number | null {
  const text = header?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = text === '' ? Number.NaN : Date.parse(text);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  if (typeof details.retryAfterMs === 'number') return details.retryAfterMs;
  if (typeof details.retryAfterSeconds === 'number') return details.retryAfterSeconds * 1000;
  return null;
}

/**
 * Rebuilds a non-2xx answer as a GatehouseApiError: the wire error's code, message and details
 * with the HTTP status; a body that is empty or not the wire shape (a proxy's 502 page) gives a
 * code from the status (SERVICE_UNAVAILABLE, RATE_LIMITED, INTERNAL or `HTTP_<status>`) and a
 * message naming the status.
 * @example decodeWireError(404, '{"error":{"code":"NOT_FOUND","message":"no gate g1"}}').code // 'NOT_FOUND'
 */
export function decodeWireError(
  status: number,
  body: string,
  context: WireErrorContext = {},
): GatehouseApiError {
  const wire = record(record(parse(body))?.error);
  if (wire !== null && typeof wire.code === 'string' && wire.code !== '') {
    const details = record(wire.details) ?? {};
    const message = typeof wire.message === 'string' && wire.message !== '' ? wire.message : wire.code;
    const retryAfterMs = retryAfterMsOf(context.retryAfter, details, context.now);
    return new GatehouseApiError(wire.code, message, { status, details, retryAfterMs });
  }
  const line = context.statusText ? `${status} ${context.statusText}` : String(status);
  const snippet = body.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_MAX);
  const message = `the server answered HTTP ${line} without a Gatehouse error body${snippet ? `: ${snippet}` : ''}`;
  const retryAfterMs = retryAfterMsOf(context.retryAfter, {}, context.now);
  return new GatehouseApiError(fallbackCode(status), message, { status, retryAfterMs });
}

/** The part of a fetch `Response` the decoder reads. */
export interface ErrorResponse {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** Reads a fetch Response that is not ok and rebuilds its error (see decodeWireError). */
export async function errorFromResponse(response: ErrorResponse): Promise<GatehouseApiError> {
  const body = await response.text().catch(() => '');
  return decodeWireError(response.status, body, {
    statusText: response.statusText,
    retryAfter: response.headers.get('retry-after'),
  });
}
