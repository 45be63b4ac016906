import { z } from 'zod';
import { GATE_STATUSES, type GateStatus } from '../enums.js';

const rate = z.number().nullable();

const figures = {
  allowed: z.number().describe('Requests the policy allowed at once'),
  denied: z.number().describe('Requests the policy denied at once'),
  gates: z.number().describe('Gates opened'),
  pending: z.number(),
  decided: z.number().describe('Gates ended by a person'),
  approved: z.number(),
  rejected: z.number(),
  steered: z.number(),
  resolved: z.number(),
  expired: z.number(),
  cancelled: z.number(),
  escalationRate: rate.describe('gates / (allowed + denied + gates)'),
  approvalRate: rate.describe('approved / decided'),
  timeToDecision: z.object({
    count: z.number(),
    medianSeconds: z.number().nullable(),
    p90Seconds: z.number().nullable(),
  }),
};

function countsByStatus(): { [S in GateStatus]: z.ZodNumber } {
  const entries = GATE_STATUSES.map((status) => [status, z.number().describe(`Of them, now ${status}`)]);
  return Object.fromEntries(entries) as { [S in GateStatus]: z.ZodNumber };
}

export const metricsFiguresSchema = z.object(figures);

const bucketSchema = z.object({
  start: z.number().describe('Bucket start, epoch ms'),
  gates: z.number().describe('Gates opened in the bucket'),
  ...countsByStatus(),
});

/** `GET /v1/metrics/summary`. */
export const metricsSummarySchema = z.object({
  generatedAt: z.number(),
  totals: metricsFiguresSchema,
  byAgent: z.array(z.object({ agentId: z.string().nullable(), ...figures })),
  byType: z.array(z.object({ type: z.string(), ...figures })),
  overTime: z
    .object({
      bucketSeconds: z.number().describe('Bucket size: the smallest that spans first gate to now in ≤ 30'),
      buckets: z.array(bucketSchema).describe('Oldest first, empty buckets included'),
    })
    .describe('Gates over time by the bucket they opened in and their status now'),
});

/** Counts and rates of one slice of gates (all, one agent, one type). */
export type MetricsFigures = z.infer<typeof metricsFiguresSchema>;
/** Gates opened in one time bucket, by their status now. */
export type MetricsBucket = z.infer<typeof bucketSchema>;
export type MetricsSummary = z.infer<typeof metricsSummarySchema>;
