import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';

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

/** Liveness and readiness, for load balancers (not in the API description). */
export const healthRoutes = {
  liveness: defineRoute({
    method: 'GET',
    path: '/healthz',
    tags: [],
    hide: true,
    response: { 200: livenessResponseSchema },
  }),
  readiness: defineRoute({
    method: 'GET',
    path: '/readyz',
    tags: [],
    hide: true,
    response: { 200: readinessResponseSchema, 503: readinessResponseSchema },
  }),
};
