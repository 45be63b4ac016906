import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route of the API: the server registers it from this object, the OpenAPI document describes it
 * and every TypeScript client calls it through it, so a path or a shape is written once.
 */
export interface RouteDefinition {
  readonly method: HttpMethod;
  /** Fastify-style path: `/v1/gates/:id`; each `:name` is a field of `params`. */
  readonly path: string;
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  /** Content types of a route that answers something other than JSON (JSON Lines, HTML). */
  readonly produces?: readonly string[];
  /** OpenAPI security requirements; `[]` for routes that take no credential (sign-in). */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly headers?: z.ZodType;
  /** Response schemas by status; a route without one is refused by the table's test. */
  readonly response: Readonly<Record<number, z.ZodType>>;
  /** Left out of the OpenAPI document (internal routes). */
  readonly hide?: boolean;
}

/** Keeps the literal types of a route so `call` and the server infer its shapes. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

type SchemaAt<R, K extends string> = R extends { readonly [key in K]: infer S extends z.ZodType }
  ? S
  : undefined;
type InputAt<R, K extends string> = SchemaAt<R, K> extends z.ZodType ? z.input<SchemaAt<R, K>> : undefined;
type OutputAt<R, K extends string> = SchemaAt<R, K> extends z.ZodType ? z.output<SchemaAt<R, K>> : undefined;

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessSchema<R extends RouteDefinition> = R['response'][Extract<keyof R['response'], SuccessStatus>];

interface RouteInputParts<R extends RouteDefinition> {
  params: InputAt<R, 'params'>;
  query: InputAt<R, 'query'>;
  body: InputAt<R, 'body'>;
  headers: InputAt<R, 'headers'>;
}

type Empty = Record<never, never>;
type PartsWith<T, Optional extends boolean> = {
  [K in keyof T]: T[K] extends undefined
    ? never
    : Empty extends T[K]
      ? Optional extends true
        ? K
        : never
      : Optional extends true
        ? never
        : K;
}[keyof T];

/** What a client sends: only the parts the route has; a part whose fields are all optional may be left out. */
export type RouteInput<R extends RouteDefinition> = {
  [K in PartsWith<RouteInputParts<R>, false>]: RouteInputParts<R>[K];
} & { [K in PartsWith<RouteInputParts<R>, true>]?: RouteInputParts<R>[K] };

/** What a client receives on success. */
export type RouteResult<R extends RouteDefinition> =
  SuccessSchema<R> extends z.ZodType ? z.output<SuccessSchema<R>> : undefined;

/** What a server handler may send on success (before serialisation). */
export type RouteReply<R extends RouteDefinition> =
  SuccessSchema<R> extends z.ZodType ? z.input<SuccessSchema<R>> : undefined;

/** What a server handler receives after validation. */
export interface RouteRequestParts<R extends RouteDefinition> {
  params: OutputAt<R, 'params'>;
  query: OutputAt<R, 'query'>;
  body: OutputAt<R, 'body'>;
  headers: OutputAt<R, 'headers'>;
}

/** A route's request as a client sends it: method, path with its params filled in, query and body. */
export interface RouteRequest {
  method: HttpMethod;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** `/v1/gates/:id` + `{ id: 'g 1' }` → `/v1/gates/g%201`; a missing param is an error, not "undefined". */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '')
      throw new TypeError(`missing path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
}

/** `{ status: 'pending', limit: 5 }` → `?status=pending&limit=5`; undefined, null and empty values are left out. */
export function queryString(query: Record<string, unknown> = {}): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
    }
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** Builds the request a client sends for `route` (or its light form: method and path) with `input`. */
export function routeRequest<R extends RouteDefinition>(
  route: Pick<R, 'method' | 'path'>,
  input: RouteInput<R>,
): RouteRequest {
  const parts = input as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
    headers?: Record<string, string>;
  };
  const request: RouteRequest = {
    method: route.method,
    path: fillPath(route.path, parts.params) + queryString(parts.query),
  };
  if (parts.body !== undefined) request.body = parts.body;
  if (parts.headers !== undefined) request.headers = parts.headers;
  return request;
}
