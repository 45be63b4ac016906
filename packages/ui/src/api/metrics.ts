import type { GateStatus } from 'gatehouse-hitl-core';
import { api } from './client.js';

/** Review figures for one slice: everything, one agent or one gate type. */
export interface MetricsFigures {
  allowed: number;
  denied: number;
  gates: number;
  pending: number;
  decided: number;
  approved: number;
  rejected: number;
  steered: number;
  resolved: number;
  expired: number;
  cancelled: number;
  /** gates / (allowed + denied + gates); null without requests. */
  escalationRate: number | null;
  /** approved / decided by people; null without decisions. */
  approvalRate: number | null;
  timeToDecision: { count: number; medianSeconds: number | null; p90Seconds: number | null };
}

export type MetricsBucket = { start: number; gates: number } & Record<GateStatus, number>;

export interface MetricsSummary {
  generatedAt: number;
  totals: MetricsFigures;
  byAgent: (MetricsFigures & { agentId: string | null })[];
  byType: (MetricsFigures & { type: string })[];
  overTime: { bucketSeconds: number; buckets: MetricsBucket[] };
}

export function getMetricsSummary(signal?: AbortSignal): Promise<MetricsSummary> {
  return api<MetricsSummary>('GET', '/v1/metrics/summary', signal ? { signal } : {});
}
