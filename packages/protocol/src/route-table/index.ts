export type { AbortSignalLike, FetchLike, FetchTransportOptions, Transport } from './call.js';
export { call, fetchTransport } from './call.js';
export type {
  HttpMethod,
  RouteDefinition,
  RouteInput,
  RouteReply,
  RouteRequest,
  RouteRequestParts,
  RouteResult,
} from './define.js';
export { defineRoute, fillPath, queryString, routeRequest } from './define.js';
export { listRoutes, routeTable } from './table.js';
