import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { RouteDefinition, RouteReply, RouteRequestParts } from 'gatehouse-hitl-protocol';

/** A request to `R` after validation: its params, query, body and headers typed by the route's schemas. */
export type RouteRequestOf<R extends RouteDefinition> = FastifyRequest<{
  Params: RouteRequestParts<R>['params'];
  Querystring: RouteRequestParts<R>['query'];
  Body: RouteRequestParts<R>['body'];
  Headers: RouteRequestParts<R>['headers'];
}>;

export type RouteHandlerOf<R extends RouteDefinition> = (
  request: RouteRequestOf<R>,
  reply: FastifyReply,
) => Promise<RouteReply<R> | FastifyReply>;

/** What a route adds beside its definition: hooks and per-route config (rate limits, body limits). */
export type RouteExtras = Pick<
  RouteShorthandOptions,
  'config' | 'preValidation' | 'bodyLimit' | 'serializerCompiler'
>;

/** Registers `route` from the protocol's route table, so its path and schemas are written only there. */
export function registerRoute<R extends RouteDefinition>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandlerOf<R>,
  extras: RouteExtras = {},
): void {
  app.route({
    ...extras,
    method: route.method,
    url: route.path,
    schema: {
      tags: [...route.tags],
      ...(route.summary ? { summary: route.summary } : {}),
      ...(route.description ? { description: route.description } : {}),
      ...(route.produces ? { produces: [...route.produces] } : {}),
      ...(route.security ? { security: route.security.map((entry) => ({ ...entry })) } : {}),
      ...(route.hide ? { hide: true } : {}),
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      ...(route.headers ? { headers: route.headers } : {}),
      response: route.response,
    },
    handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
