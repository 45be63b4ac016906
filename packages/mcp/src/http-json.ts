import {
  decodeWireError,
  type RouteDefinition,
  type RouteInput,
  type RouteResult,
  routeRequest,
} from 'gatehouse-hitl-protocol';
import { GatehouseApiError } from 'gatehouse-hitl-sdk';

/** One attempt's longest wait for the server. */
const ATTEMPT_TIMEOUT_MS = 30_000;

/** Where and as whom the MCP server calls the Gatehouse API. */
export interface ApiTarget {
  /** The server's base URL, without a trailing slash. */
  base: string;
  token: string;
  fetch: typeof fetch;
}

/**
 * One JSON call to the Gatehouse API with the caller's token. An unreachable server is
 * SERVICE_UNAVAILABLE naming it; an error answer is decoded into the wire error it carries.
 */
export async function sendJson(
  target: ApiTarget,
  method: string,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(ATTEMPT_TIMEOUT_MS);
  const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await target.fetch(`${target.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new GatehouseApiError(
      'SERVICE_UNAVAILABLE',
      `cannot reach the Gatehouse server at ${target.base}: ${detail}`,
      { status: 0, details: { url: target.base }, cause: error },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    const retryAfter = response.headers.get('retry-after');
    throw decodeWireError(response.status, text, { statusText: response.statusText, retryAfter });
  }
  return text === '' ? undefined : JSON.parse(text);
}

/** Calls a route of the protocol's table with the caller's token (see sendJson). */
export function sendRoute<R extends RouteDefinition>(
  target: ApiTarget,
  route: R,
  input: RouteInput<R>,
  signal?: AbortSignal,
): Promise<RouteResult<R>> {
  const request = routeRequest(route, input);
  return sendJson(target, request.method, request.path, request.body, signal) as Promise<RouteResult<R>>;
}
