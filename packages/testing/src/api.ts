import {
  call,
  fetchTransport,
  type RouteDefinition,
  type RouteInput,
  type RouteResult,
} from 'gatehouse-hitl-protocol';

/** Calls the environment's server as whoever holds `token`. */
export type ApiCall = <R extends RouteDefinition>(
  token: string,
  route: R,
  input: RouteInput<R>,
) => Promise<RouteResult<R>>;

/** A typed caller of the route table over real HTTP to `url`. */
export function apiCaller(url: string): ApiCall {
  return (token, route, input) => call(fetchTransport({ url, token }), route, input);
}
