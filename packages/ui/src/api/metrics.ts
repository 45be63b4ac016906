import type { MetricsBucket, MetricsFigures, MetricsSummary } from 'gatehouse-hitl-protocol';
import { api } from './client.js';

export type { MetricsBucket, MetricsFigures, MetricsSummary };

export function getMetricsSummary(signal?: AbortSignal): Promise<MetricsSummary> {
  return api<MetricsSummary>('GET', '/v1/metrics/summary', signal ? { signal } : {});
}
