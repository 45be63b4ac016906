import type { AnalysisMetrics as Metrics } from 'gatehouse-hitl-protocol';
import { type BarGroup, HorizontalBarChart } from './charts/HorizontalBarChart.js';
import type { Series } from './charts/series.js';

const RATE: readonly Series[] = [{ key: 'rate', label: 'Rate', tone: 'tone-approved', pattern: 'solid' }];
const COUNT: readonly Series[] = [{ key: 'count', label: 'Count', tone: 'tone-steered', pattern: 'dots' }];

function percent(value: number | null): string {
  return value === null ? 'no data' : `${Math.round(value * 100)}%`;
}

function plain(value: number | null): string {
  return value === null ? 'no data' : String(Math.round(value * 100) / 100);
}

/** Seed 001's rates, each 0–1, null without a denominator. */
export function analysisRateGroups(metrics: Metrics): BarGroup[] {
  const rows: [string, string, number | null][] = [
    ['escalation', 'Escalation rate', metrics.escalationRate],
    ['recovery', 'Recovery success rate', metrics.recoverySuccessRate],
    ['false-positive', 'False-positive rate', metrics.falsePositiveRate],
    ['precision', 'Detection precision', metrics.detectionPrecision],
    ['destructive', 'Destructive action rate', metrics.destructiveActionRate],
    ['alternative', 'Alternative found rate', metrics.alternativeFoundRate],
    ['whitelist-growth', 'Whitelist growth (30 days)', metrics.whitelistGrowth.rate],
  ];
  return rows.map(([key, label, rate]) => ({ key, label, values: { rate } }));
}

/** Change analysis, recovery and whitelist metrics as charts, each with its words and a data table. */
export function AnalysisMetrics({ metrics }: { metrics: Metrics }) {
  const rates = analysisRateGroups(metrics);
  const growth = metrics.whitelistGrowth;
  const counts: BarGroup[] = [
    {
      key: 'attempts',
      label: 'Average attempts before escalation',
      values: { count: metrics.averageAttemptsBeforeEscalation },
    },
    { key: 'active', label: 'Active whitelist entries', values: { count: growth.active } },
    { key: 'expired', label: 'Expired whitelist entries', values: { count: growth.expired } },
    {
      key: 'created',
      label: 'Whitelist entries added, last 30 days',
      values: { count: growth.createdLast30Days },
    },
  ];
  return (
    <div className="chart-pair">
      <HorizontalBarChart
        title="Change analysis rates"
        summary={rates.map((group) => `${group.label}: ${percent(group.values.rate ?? null)}`).join('; ')}
        groups={rates}
        series={RATE}
        max={1}
        format={percent}
      />
      <HorizontalBarChart
        title="Recovery attempts and whitelist growth"
        summary={counts.map((group) => `${group.label}: ${plain(group.values.count ?? null)}`).join('; ')}
        groups={counts}
        series={COUNT}
        format={plain}
      />
    </div>
  );
}
