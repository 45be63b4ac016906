import type { RouteDefinition } from './define.js';
import type { routeTable } from './table.js';

type Table = typeof routeTable;

declare const routeType: unique symbol;

/** A route's method and path without its schemas; its type still names the full route, for typing. */
export interface LightRoute<R extends RouteDefinition = RouteDefinition> {
  readonly method: R['method'];
  readonly path: R['path'];
  readonly [routeType]?: R;
}

/** What the light table may hold: for each route it names, exactly the table's method and path. */
type MethodAndPath<R> = R extends RouteDefinition
  ? { readonly method: R['method']; readonly path: R['path'] }
  : never;

type LightTableShape = {
  readonly [S in keyof Table]?: { readonly [N in keyof Table[S]]?: MethodAndPath<Table[S][N]> };
};

type Typed<T extends LightTableShape> = {
  readonly [S in keyof T]: {
    readonly [N in keyof T[S]]: S extends keyof Table
      ? N extends keyof Table[S]
        ? Table[S][N] extends RouteDefinition
          ? LightRoute<Table[S][N]>
          : never
        : never
      : never;
  };
};

function typed<const T extends LightTableShape>(table: T): Typed<T> {
  return table as unknown as Typed<T>;
}

/**
 * The routes the SDK and the Claude Code hook call, by the route table's subject and name: method
 * and path only, so those clients load no zod. The compiler holds each entry to the table's own
 * method and path, and each entry's type carries the full route for its input and result types.
 */
export const lightRoutes = typed({
  analysis: {
    analyze: { method: 'POST', path: '/v1/analyze' },
  },
  auth: {
    me: { method: 'GET', path: '/v1/me' },
  },
  confidence: {
    report: { method: 'POST', path: '/v1/confidence' },
  },
  gateActions: {
    consume: { method: 'POST', path: '/v1/gates/:id/consume' },
    withdraw: { method: 'POST', path: '/v1/gates/:id/withdraw' },
  },
  gates: {
    get: { method: 'GET', path: '/v1/gates/:id' },
    request: { method: 'POST', path: '/v1/gates' },
    wait: { method: 'GET', path: '/v1/gates/:id/wait' },
  },
  journal: {
    append: { method: 'POST', path: '/v1/runs/:id/journal' },
    list: { method: 'GET', path: '/v1/runs/:id/journal' },
  },
  reviews: {
    comment: { method: 'POST', path: '/v1/reviews/:id/comments' },
    comments: { method: 'GET', path: '/v1/reviews/:id/comments' },
    get: { method: 'GET', path: '/v1/reviews/:id' },
  },
  runs: {
    checkpoint: { method: 'POST', path: '/v1/runs/:id/checkpoint' },
    complete: { method: 'POST', path: '/v1/runs/:id/complete' },
    create: { method: 'POST', path: '/v1/runs' },
    get: { method: 'GET', path: '/v1/runs/:id' },
  },
  streams: {
    run: { method: 'GET', path: '/v1/runs/:id/events' },
  },
  workspace: {
    summary: { method: 'GET', path: '/v1/runs/:id/workspace' },
  },
});
