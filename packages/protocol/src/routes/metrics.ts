import { z } from 'zod';
import { GATE_STATUSES, type GateStatus } from '../enums.js';
import { defineRoute } from '../route-table/define.js';

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

/** Seed 001's analysis metrics; docs/analysis.md defines each. Rates are 0–1, null without a denominator. */
export const analysisMetricsSchema = z.object({
  escalationRate: rate.describe('recoveries escalated to a person / recoveries started'),
  recoverySuccessRate: rate.describe('recoveries resolved by the agent, no gate / recoveries ended'),
  averageAttemptsBeforeEscalation: z.number().nullable().describe('mean attempts of escalated recoveries'),
  humanDecisionTime: z.object({
    count: z.number(),
    averageSeconds: z.number().nullable(),
    medianSeconds: z.number().nullable(),
    p90Seconds: z.number().nullable(),
  }),
  falsePositiveRate: rate.describe('confirmed false positives / detections'),
  detectionPrecision: rate.describe(
    'violation / (violation + legitimate + whitelist) on decided false-positive gates',
  ),
  whitelistGrowth: z.object({
    active: z.number(),
    expired: z.number(),
    createdLast30Days: z.number(),
    rate: rate.describe('createdLast30Days / entries that existed 30 days ago'),
  }),
  destructiveActionRate: rate.describe('destructive_action gates / changes analysed in runs'),
  approvalRate: rate.describe('destructive_action gates a person approved / decided by a person'),
  alternativeFoundRate: rate.describe(
    'rejected or suggested destructive_action gates whose run completed / all of them',
  ),
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
  analysis: analysisMetricsSchema
    .optional()
    .describe('Change analysis, recovery, false positives, whitelists'),
});

/** Counts and rates of one slice of gates (all, one agent, one type). */
export type MetricsFigures = z.infer<typeof metricsFiguresSchema>;
/** Gates opened in one time bucket, by their status now. */
export type MetricsBucket = z.infer<typeof bucketSchema>;
export type MetricsSummary = z.infer<typeof metricsSummarySchema>;
export type AnalysisMetrics = z.infer<typeof analysisMetricsSchema>;

/** The Prometheus exposition (`/metrics`, text; open, counts only) and the JSON summary for people. */
export const metricsRoutes = {
  prometheus: defineRoute({
    method: 'GET',
    path: '/metrics',
    tags: [],
    hide: true,
    response: { 200: z.string().describe('text/plain; version=0.0.4: the Prometheus exposition format') },
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/v1/metrics/summary',
    tags: ['metrics'],
    response: { 200: metricsSummarySchema },
  }),
};
