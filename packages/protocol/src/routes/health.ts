import { z } from 'zod';

/** `GET /healthz`: the process answers. */
export const livenessResponseSchema = z.object({ ok: z.literal(true) });

/** `GET /readyz`: 200 when every check passes, else 503 with the same body. */
export const readinessResponseSchema = z.object({
  ready: z.boolean(),
  checks: z.object({
    database: z.boolean().describe('The database answers'),
    events: z.boolean().describe('The event listener is up'),
    writes: z.boolean().describe('Writes succeed'),
  }),
});

export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;
