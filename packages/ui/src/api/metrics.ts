import {
  type MetricsBucket,
  type MetricsFigures,
  type MetricsSummary,
  metricsRoutes,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type { MetricsBucket, MetricsFigures, MetricsSummary };

export function getMetricsSummary(signal?: AbortSignal): Promise<MetricsSummary> {
  return callApi(metricsRoutes.summary, {}, signal);
}
