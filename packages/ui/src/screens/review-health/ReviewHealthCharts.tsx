import { RISK_LEVELS } from 'gatehouse-hitl-protocol';
import type { ReviewHealth } from '../../api/review-health.js';
import { type BarGroup, HorizontalBarChart } from '../../components/charts/HorizontalBarChart.js';
import { type StackedBar, StackedBarChart } from '../../components/charts/StackedBarChart.js';
import type { Series } from '../../components/charts/series.js';
import { seconds } from '../../lib/run-labels.js';

const TIME_SERIES: readonly Series[] = [
  { key: 'median', label: 'Median', tone: 'tone-steered', pattern: 'solid' },
  { key: 'p90', label: '90th percentile', tone: 'tone-expired', pattern: 'hlines' },
];

// Colour and pattern together, so reviewers stay apart without relying on colour.
const REVIEWER_LOOKS: readonly Pick<Series, 'tone' | 'pattern'>[] = [
  { tone: 'tone-approved', pattern: 'solid' },
  { tone: 'tone-rejected', pattern: 'stripes' },
  { tone: 'tone-steered', pattern: 'dots' },
  { tone: 'tone-resolved', pattern: 'cross' },
  { tone: 'tone-expired', pattern: 'hlines' },
  { tone: 'tone-escalation', pattern: 'vlines' },
];
const OTHERS = 'others';

/** Median and 90th percentile time to decision for each risk, over the whole window. */
export function TimeByRiskChart({ health }: { health: ReviewHealth }) {
  const groups: BarGroup[] = RISK_LEVELS.map((risk) => {
    const figures = health.totals.timeToDecision[risk];
    return {
      key: risk,
      label: `${risk} (${figures.count} decisions)`,
      values: { median: figures.medianSeconds, p90: figures.p90Seconds },
    };
  });
  const described = RISK_LEVELS.map((risk) => {
    const { medianSeconds, p90Seconds } = health.totals.timeToDecision[risk];
    return `${risk}: median ${seconds(medianSeconds)}, 90th percentile ${seconds(p90Seconds)}`;
  });
  return (
    <HorizontalBarChart
      title="Time to decision by risk"
      summary={`Time from a gate opening to a person's decision. ${described.join('; ')}.`}
      groups={groups}
      series={TIME_SERIES}
      format={seconds}
    />
  );
}

function dayLabel(at: number, long: boolean): string {
  return new Date(at).toLocaleDateString(
    [],
    long ? { day: 'numeric', month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' },
  );
}

/** Approvals per reviewer per day, stacked; the six busiest reviewers by name, the rest together. */
export function ApprovalsOverTimeChart({ health }: { health: ReviewHealth }) {
  const ranked = [...health.series.approvals].sort(
    (a, b) => b.counts.reduce((x, y) => x + y, 0) - a.counts.reduce((x, y) => x + y, 0),
  );
  const named = ranked.slice(0, REVIEWER_LOOKS.length - (ranked.length > REVIEWER_LOOKS.length ? 1 : 0));
  const rest = ranked.slice(named.length);
  const series: Series[] = named.map((each, index) => ({
    key: each.reviewer,
    label: each.name,
    ...(REVIEWER_LOOKS[index] ?? { tone: 'tone-approved', pattern: 'solid' }),
  }));
  if (rest.length > 0)
    series.push({ key: OTHERS, label: `${rest.length} others`, tone: 'tone-pending', pattern: 'outline' });
  const bars: StackedBar[] = health.series.days.map((day, index) => {
    const values: Record<string, number> = {};
    for (const each of named) values[each.reviewer] = each.counts[index] ?? 0;
    if (rest.length > 0) values[OTHERS] = rest.reduce((sum, each) => sum + (each.counts[index] ?? 0), 0);
    return { key: String(day), label: dayLabel(day, false), longLabel: dayLabel(day, true), values };
  });
  const totals = named.map((each) => `${each.name} ${each.counts.reduce((x, y) => x + y, 0)}`);
  return (
    <StackedBarChart
      title="Approvals per reviewer per day"
      summary={`Approvals each day of the last ${health.window.days} days, stacked by reviewer. In all: ${totals.join(', ') || 'none'}.`}
      bars={bars}
      series={series}
    />
  );
}
