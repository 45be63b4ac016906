import { useCallback, useEffect, useRef, useState } from 'react';
import { type Agent, listAgents } from '../api/admin.js';
import { errorText } from '../api/client.js';
import { INBOX_EVENTS_PATH, type StreamStatus, useEventStream } from '../api/events.js';
import { getMetricsSummary, type MetricsFigures, type MetricsSummary } from '../api/metrics.js';
import { AnalysisMetrics } from '../components/AnalysisMetrics.js';
import { type BarGroup, HorizontalBarChart } from '../components/charts/HorizontalBarChart.js';
import { type StackedBar, StackedBarChart } from '../components/charts/StackedBarChart.js';
import { OUTCOME_SERIES, type Series } from '../components/charts/series.js';
import { LiveStatus } from '../components/LiveStatus.js';
import { formatDateTime } from '../components/time-format.js';
import { percent, seconds } from '../lib/run-labels.js';
import { useResource } from '../lib/use-resource.js';

const RATE_SERIES: readonly Series[] = [
  { key: 'escalation', label: 'Escalation rate', tone: 'tone-escalation', pattern: 'solid' },
  { key: 'approval', label: 'Approval rate', tone: 'tone-approved', pattern: 'stripes' },
];
const TIME_SERIES: readonly Series[] = [
  { key: 'median', label: 'Median', tone: 'tone-steered', pattern: 'solid' },
  { key: 'p90', label: '90th percentile', tone: 'tone-expired', pattern: 'hlines' },
];

interface Loaded {
  summary: MetricsSummary;
  agents: Map<string, string>;
}

async function loadMetrics(signal: AbortSignal): Promise<Loaded> {
  const [summary, agents] = await Promise.all([
    getMetricsSummary(signal),
    listAgents(signal).catch(() => [] as Agent[]),
  ]);
  return { summary, agents: new Map(agents.map((agent) => [agent.id, agent.name])) };
}

function bucketLabels(start: number, bucketSeconds: number): { label: string; longLabel: string } {
  const from = new Date(start);
  const to = new Date(start + bucketSeconds * 1000);
  const time = (at: Date) => at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const day = (at: Date) => at.toLocaleDateString([], { day: 'numeric', month: 'short' });
  if (bucketSeconds < 86_400) {
    return { label: time(from), longLabel: `${day(from)}, ${time(from)}–${time(to)}` };
  }
  return {
    label: day(from),
    longLabel: bucketSeconds === 86_400 ? day(from) : `${day(from)} – ${day(new Date(to.getTime() - 1))}`,
  };
}

function bucketWord(bucketSeconds: number): string {
  const words: Record<number, string> = {
    60: 'minute',
    300: '5 minutes',
    900: '15 minutes',
    3600: 'hour',
    21600: '6 hours',
    86400: 'day',
    604800: 'week',
    2592000: '30 days',
  };
  return words[bucketSeconds] ?? `${bucketSeconds} seconds`;
}

function OverTime({ summary }: { summary: MetricsSummary }) {
  const { buckets, bucketSeconds } = summary.overTime;
  if (buckets.length === 0)
    return <p className="muted">No gates yet: the chart appears with the first one.</p>;
  const bars: StackedBar[] = buckets.map((bucket) => ({
    key: String(bucket.start),
    ...bucketLabels(bucket.start, bucketSeconds),
    values: Object.fromEntries(
      OUTCOME_SERIES.map((each) => [each.key, bucket[each.key as keyof typeof bucket]]),
    ),
  }));
  const totals = OUTCOME_SERIES.map(
    (each) => `${summary.totals[each.key as keyof MetricsFigures] as number} ${each.label.toLowerCase()}`,
  );
  return (
    <StackedBarChart
      title={`Gates opened per ${bucketWord(bucketSeconds)}, by outcome`}
      summary={`${summary.totals.gates} gates over ${buckets.length} periods: ${totals.join(', ')}.`}
      bars={bars}
      series={OUTCOME_SERIES}
    />
  );
}

function Headline({ totals }: { totals: MetricsFigures }) {
  const tiles: [string, string, string][] = [
    ['Gates opened', String(totals.gates), `${totals.pending} pending now`],
    ['Escalation rate', percent(totals.escalationRate), 'of agent requests needed a person'],
    ['Approval rate', percent(totals.approvalRate), `of ${totals.decided} human decisions`],
    [
      'Time to decision, median',
      seconds(totals.timeToDecision.medianSeconds),
      `over ${totals.timeToDecision.count} decisions`,
    ],
    ['Time to decision, p90', seconds(totals.timeToDecision.p90Seconds), '9 in 10 decided within'],
  ];
  return (
    <dl className="stat-tiles">
      {tiles.map(([label, value, note]) => (
        <div key={label} className="stat-tile">
          <dt>{label}</dt>
          <dd>
            <span className="stat-value">{value}</span>
            <span className="muted stat-note">{note}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function rateGroups(rows: readonly (MetricsFigures & { key: string; label: string })[]): BarGroup[] {
  return rows.map((row) => ({
    key: row.key,
    label: row.label,
    values: { escalation: row.escalationRate, approval: row.approvalRate },
  }));
}

function timeGroups(rows: readonly (MetricsFigures & { key: string; label: string })[]): BarGroup[] {
  return rows
    .filter((row) => row.timeToDecision.count > 0)
    .map((row) => ({
      key: row.key,
      label: `${row.label} (${row.timeToDecision.count})`,
      values: { median: row.timeToDecision.medianSeconds, p90: row.timeToDecision.p90Seconds },
    }));
}

function Breakdown({
  title,
  rows,
  withEscalation,
}: {
  title: string;
  rows: (MetricsFigures & { key: string; label: string })[];
  /** Requests are counted per agent only, so the escalation rate exists per agent, not per gate type. */
  withEscalation: boolean;
}) {
  if (rows.length === 0) return <p className="muted">Nothing to break down yet.</p>;
  const times = timeGroups(rows);
  const series = withEscalation ? RATE_SERIES : RATE_SERIES.filter((each) => each.key === 'approval');
  const describe = (row: MetricsFigures & { label: string }) =>
    withEscalation
      ? `${row.label}: escalation ${percent(row.escalationRate)}, approval ${percent(row.approvalRate)}`
      : `${row.label}: approval ${percent(row.approvalRate)} of ${row.decided} decisions`;
  return (
    <div className="chart-pair">
      <HorizontalBarChart
        title={`${withEscalation ? 'Escalation and approval rate' : 'Approval rate'} ${title}`}
        summary={rows.map(describe).join('; ')}
        groups={rateGroups(rows)}
        series={series}
        max={1}
        format={percent}
      />
      {times.length === 0 ? (
        <p className="muted">No human decisions yet, so no time to decision {title}.</p>
      ) : (
        <HorizontalBarChart
          title={`Time to human decision ${title}`}
          summary={times
            .map(
              (group) =>
                `${group.label}: median ${seconds(group.values.median ?? null)}, p90 ${seconds(group.values.p90 ?? null)}`,
            )
            .join('; ')}
          groups={times}
          series={TIME_SERIES}
          format={seconds}
        />
      )}
    </div>
  );
}

/** Review metrics as charts: gates over time by outcome, rates and time to decision per agent and gate type. */
export function MetricsScreen() {
  const { resource, reload } = useResource('metrics', loadMetrics);
  const [stream, setStream] = useState<StreamStatus>('connecting');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Gate events refresh the figures, at most every few seconds.
  const onEvent = useCallback(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      reload();
    }, 3000);
  }, [reload]);
  useEventStream(INBOX_EVENTS_PATH, onEvent, setStream);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const header = (
    <div className="row screen-title">
      <h1>Metrics</h1>
      <LiveStatus status={stream} />
      <button type="button" onClick={reload}>
        Refresh
      </button>
    </div>
  );
  if (resource.status === 'loading') {
    return (
      <main id="main" className="page ops-page">
        {header}
        <p role="status">Loading metrics…</p>
      </main>
    );
  }
  if (resource.status === 'error') {
    return (
      <main id="main" className="page ops-page">
        {header}
        <p className="notice error" role="alert">
          Could not load metrics: {errorText(resource.error)}
        </p>
      </main>
    );
  }
  const { summary, agents } = resource.value;
  const byAgent = summary.byAgent.map((row) => ({
    ...row,
    key: row.agentId ?? 'none',
    label: row.agentId === null ? 'No agent' : (agents.get(row.agentId) ?? row.agentId),
  }));
  const byType = summary.byType.map((row) => ({
    ...row,
    key: row.type,
    label: row.type.replaceAll('_', ' '),
  }));
  return (
    <main id="main" className="page ops-page">
      {header}
      <p className="muted">
        Figures as of {formatDateTime(summary.generatedAt)}, computed from the database.
      </p>
      <Headline totals={summary.totals} />
      <section className="card" aria-labelledby="over-time-title">
        <h2 id="over-time-title">Gates over time</h2>
        <OverTime summary={summary} />
      </section>
      <section className="card" aria-labelledby="per-agent-title">
        <h2 id="per-agent-title">Per agent</h2>
        <Breakdown title="per agent" rows={byAgent} withEscalation />
      </section>
      <section className="card" aria-labelledby="per-type-title">
        <h2 id="per-type-title">Per gate type</h2>
        <Breakdown title="per gate type" rows={byType} withEscalation={false} />
      </section>
      {summary.analysis && (
        <section className="card" aria-labelledby="analysis-metrics-title">
          <h2 id="analysis-metrics-title">Change analysis and recovery</h2>
          <AnalysisMetrics metrics={summary.analysis} />
        </section>
      )}
    </main>
  );
}
