import { z } from 'zod';

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
