import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createWhitelistBodySchema,
  patternListResponseSchema,
  renewWhitelistBodySchema,
  whitelistListResponseSchema,
  whitelistParamsSchema,
  whitelistResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { WHITELIST_ROLE } from '../services/whitelists/whitelist-decisions.js';

const tags = ['whitelists'];

/** Whitelist entries (people only: an agent never whitelists its own findings) and the patterns' rates. */
export async function whitelistRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/whitelists',
    { schema: { tags, response: { 200: whitelistListResponseSchema } } },
    async (request) => ({
      whitelists: await services.whitelists.list(requireUser(request, 'viewer')),
    }),
  );
  app.post(
    '/v1/whitelists',
    { schema: { tags, body: createWhitelistBodySchema, response: { 201: whitelistResponseSchema } } },
    async (request, reply) => {
      const whitelist = await services.whitelists.create(requireUser(request, WHITELIST_ROLE), request.body);
      return reply.status(201).send({ whitelist });
    },
  );
  app.delete(
    '/v1/whitelists/:id',
    { schema: { tags, params: whitelistParamsSchema, response: { 200: whitelistResponseSchema } } },
    async (request) => ({
      whitelist: await services.whitelists.remove(requireUser(request, WHITELIST_ROLE), request.params.id),
    }),
  );
  app.post(
    '/v1/whitelists/:id/renew',
    {
      schema: {
        tags,
        params: whitelistParamsSchema,
        body: renewWhitelistBodySchema,
        response: { 200: whitelistResponseSchema },
      },
    },
    async (request) => ({
      whitelist: await services.whitelists.renew(
        requireUser(request, WHITELIST_ROLE),
        request.params.id,
        request.body ?? {},
      ),
    }),
  );
  app.get(
    '/v1/analysis/patterns',
    { schema: { tags: ['analysis'], response: { 200: patternListResponseSchema } } },
    async (request) => {
      requireUser(request, 'viewer');
      return { patterns: await services.whitelists.patterns() };
    },
  );
}
