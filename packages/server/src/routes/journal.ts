import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  appendJournalBodySchema,
  appendJournalResponseSchema,
  journalEntryParamsSchema,
  journalEntryResponseSchema,
  journalListQuerySchema,
  journalListResponseSchema,
  runParamsSchema as params,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** The run journal: the agent appends chat, todos, LLM requests and notes; people read them. */
export async function journalRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['journal'];

  app.post(
    '/v1/runs/:id/journal',
    {
      schema: { tags, params, body: appendJournalBodySchema, response: { 201: appendJournalResponseSchema } },
    },
    async (request, reply) => {
      const result = await services.journal.append(
        requireAuthenticated(request),
        request.params.id,
        request.body,
      );
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/v1/runs/:id/journal',
    {
      schema: {
        tags,
        params,
        querystring: journalListQuerySchema,
        response: { 200: journalListResponseSchema },
      },
    },
    async (request) => services.journal.list(requireAuthenticated(request), request.params.id, request.query),
  );

  app.get(
    '/v1/runs/:id/journal/:entryId',
    { schema: { tags, params: journalEntryParamsSchema, response: { 200: journalEntryResponseSchema } } },
    async (request) =>
      services.journal.get(requireAuthenticated(request), request.params.id, request.params.entryId),
  );
}
