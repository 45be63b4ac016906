import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { runParamsSchema } from './runs.js';

/** `after` / Last-Event-ID: a stream seq. */
export const streamSeqSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .describe('Replay events after this seq (the id of the last event received)');

export const streamQuerySchema = z.strictObject({
  after: streamSeqSchema.optional(),
});

export const streamHeadersSchema = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d{1,15}$/, 'Last-Event-ID is the id of the last event received')
    .optional()
    .describe('Resume after this event; wins over ?after='),
});

/** The body of an event stream, for the API description. */
export const streamResponseSchema = z
  .string()
  .describe(
    'text/event-stream: each event has `id: <seq>`, `event: <type>` and `data: <the stored event as JSON>`; a comment heartbeat every 15 s',
  );

const tags = ['streams'];

/** Server-Sent Events: one stream per run and one for reviewers' inboxes (answers are text/event-stream). */
export const streamRoutes = {
  run: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/events',
    tags,
    params: runParamsSchema,
    query: streamQuerySchema,
    headers: streamHeadersSchema,
    response: { 200: streamResponseSchema },
  }),
  inbox: defineRoute({
    method: 'GET',
    path: '/v1/inbox/events',
    tags,
    query: streamQuerySchema,
    headers: streamHeadersSchema,
    response: { 200: streamResponseSchema },
  }),
};
