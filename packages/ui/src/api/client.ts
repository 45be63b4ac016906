import {
  GatehouseApiError as ApiError,
  authRoutes,
  call,
  errorFromResponse,
  type RouteDefinition,
  type RouteInput,
  type RouteResult,
} from 'gatehouse-hitl-protocol';

/** A failed API call: the protocol's wire error, with the code, message and field the server named. */
export { ApiError };

export type Query = Record<string, string | number | boolean | null | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

// A 401 from signing in or out is that call's own answer, not a session that ended.
const SIGN_IN_OUT_PATHS: ReadonlySet<string> = new Set(
  [authRoutes.login, authRoutes.loginWithLink, authRoutes.logout].map((route) => route.path),
);

/** Called when any request answers 401, so the app can return to the login screen. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * Calls the Gatehouse API on this origin. The session travels in the HttpOnly `gatehouse_session`
 * cookie (SameSite=Strict), so no token is ever visible to scripts.
 */
async function send(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: { body?: unknown; query?: Query; signal?: AbortSignal } = {},
): Promise<unknown> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(withQuery(path, options.query), init);
  if (response.status === 401 && !SIGN_IN_OUT_PATHS.has(path)) onUnauthorized();
  if (!response.ok) throw await errorFromResponse(response);
  const type = response.headers.get('content-type') ?? '';
  return type.includes('json') ? await response.json() : await response.text();
}

/** A route's input, optional when the route needs none. */
export type RouteArgs<R extends RouteDefinition> =
  Record<never, never> extends RouteInput<R>
    ? [input?: RouteInput<R>, signal?: AbortSignal]
    : [input: RouteInput<R>, signal?: AbortSignal];

/** Calls a route of the protocol's table with the session cookie: path, input and result typed by the route. */
export function callApi<R extends RouteDefinition>(
  route: R,
  ...[input, signal]: RouteArgs<R>
): Promise<RouteResult<R>> {
  return call(
    (request, requestSignal) =>
      send(request.method, request.path, {
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(requestSignal ? { signal: requestSignal as AbortSignal } : {}),
      }),
    route,
    ...([input ?? {}, signal] as [RouteInput<R>, AbortSignal | undefined]),
  );
}

/** A readable message for any thrown value. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.field ? `${error.message} (${error.field})` : error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
