import type { Gate } from 'gatehouse-hitl-core';
import type { StreamEvent } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { createReviewerMetrics } from '../review-health/reviewer-metrics.js';
import { loadAnalysisHistory } from './analysis-history.js';
import { analysisMetrics, renderAnalysisGauges } from './analysis-metrics.js';
import { EVENT_LOOP_DELAY_HELP, sampleEventLoopDelay } from './event-loop-delay.js';
import { exportMetrics } from './metrics-export.js';
import { isHumanDecision, type MetricsSummary, type RequestCounts, summarize } from './metrics-summary.js';
import { createCounter, createHistogram, renderCounter, renderGauge } from './prometheus.js';

/** Audit kinds of requests the policy answered at once; gated requests are counted from the gates table. */
export const REQUEST_AUDIT_KINDS = { allowed: 'request.allowed', denied: 'request.denied' } as const;

const DECISION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21_600, 86_400];
// A long-poll answers after up to a minute, so the request buckets reach 60 s.
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const EVENT_LOOP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const PAGE = 500;

/** Prometheus counters kept from bus events and HTTP responses, plus the store-based summary. */
export interface MetricsService {
  /** Counts an HTTP response and how long it took, from the request's arrival to its last byte. */
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  /** Counts a request this node answered at once (the gate service tells it after the commit). */
  countRequest(outcome: 'allowed' | 'denied'): void;
  /** The Prometheus text exposition. */
  render(): Promise<string>;
  /** Escalation rate, approval rate and time to decision, from the store, so they survive restarts. */
  summary(): Promise<MetricsSummary>;
  /** Resolves once every bus event seen so far has been counted (for tests). */
  settled(): Promise<void>;
  close(): void;
}

async function allGates(ctx: AppContext): Promise<Gate[]> {
  const gates: Gate[] = [];
  let cursor: string | null = null;
  do {
    const filter: { limit: number; cursor?: string } =
      cursor === null ? { limit: PAGE } : { limit: PAGE, cursor };
    const page = await ctx.store.read((tx) => tx.listGates(filter));
    gates.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return gates;
}

function agentOfActor(actor: string): string | null {
  return actor.startsWith('agent:') ? actor.slice('agent:'.length) : null;
}

async function requestCounts(ctx: AppContext): Promise<RequestCounts> {
  const counts: RequestCounts = new Map();
  for (const [outcome, kind] of Object.entries(REQUEST_AUDIT_KINDS) as ['allowed' | 'denied', string][]) {
    let cursor: string | null = null;
    do {
      const page = await ctx.store.queryAudit(
        cursor === null ? { kind, limit: PAGE } : { kind, limit: PAGE, cursor },
      );
      for (const event of page.items) {
        const agentId = agentOfActor(event.actor);
        const entry = counts.get(agentId) ?? { allowed: 0, denied: 0 };
        entry[outcome] += 1;
        counts.set(agentId, entry);
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  return counts;
}

/** Notices per channel and status, from the store, so every node reports the cluster's backlog and failures. */
async function renderNotifications(ctx: AppContext): Promise<string> {
  const counts = await ctx.store.read((tx) => tx.countNotifications());
  const name = 'gatehouse_notifications';
  return [
    `# HELP ${name} Notices to people (email, Slack, browser) by channel and delivery status: pending, sent, failed.`,
    `# TYPE ${name} gauge`,
    ...counts.map(
      ({ channel, status, count }) => `${name}{channel="${channel}",status="${status}"} ${count}`,
    ),
  ].join('\n');
}

/** Creates the metrics service and subscribes it to the bus. */
export function createMetricsService(ctx: AppContext): MetricsService {
  const opened = createCounter('gatehouse_gates_opened_total', 'Gates opened, by gate type.');
  const decided = createCounter('gatehouse_gates_decided_total', 'Gates ended, by gate type and outcome.');
  const requests = createCounter(
    'gatehouse_requests_total',
    'Agent requests by outcome (allowed, denied, gated).',
  );
  const escalated = createCounter(
    'gatehouse_confidence_escalations_total',
    'Confidence reports that opened a gate.',
  );
  const decisionTime = createHistogram(
    'gatehouse_gate_decision_seconds',
    'Time from a gate opening to a person deciding it, by gate type.',
    DECISION_BUCKETS,
  );
  // Every response is timed, so the request counter is the duration histogram's own count.
  const httpDuration = createHistogram(
    'gatehouse_http_request_duration_seconds',
    'Time from an HTTP request arriving to the last byte of its response, by method, route and status.',
    HTTP_BUCKETS,
  );
  const http = { entries: () => httpDuration.counts() };
  const eventLoopDelay = createHistogram(
    'gatehouse_event_loop_delay_seconds',
    EVENT_LOOP_DELAY_HELP,
    EVENT_LOOP_BUCKETS,
  );
  const reviewers = createReviewerMetrics();
  const exported =
    ctx.telemetry === null
      ? null
      : exportMetrics(ctx.telemetry, {
          http,
          opened,
          decided,
          requests,
          pending: () => ctx.store.read((tx) => tx.countGates({ status: 'pending' })),
          decisionBuckets: DECISION_BUCKETS,
          eventLoopBuckets: EVENT_LOOP_BUCKETS,
        });
  const stopSampling = sampleEventLoopDelay((seconds) => {
    eventLoopDelay.observe(seconds);
    exported?.eventLoopDelay(seconds);
  });
  const ended = { approved: 0, answered: 0 };
  let pendingWork: Promise<void> = Promise.resolve();

  async function gateOf(event: StreamEvent): Promise<Gate | null> {
    if (event.gateId === null) return null;
    const gateId = event.gateId;
    return ctx.committedGates.of(event) ?? ctx.store.read((tx) => tx.getGate(gateId));
  }

  async function count(event: StreamEvent): Promise<void> {
    switch (event.type) {
      case 'gate.opened': {
        const gate = await gateOf(event);
        opened.inc({ type: gate?.type ?? 'unknown' });
        // A confidence escalation is announced as the gate it opens.
        if (gate?.type === 'confidence_threshold') escalated.inc();
        if (gate?.requestedBy?.startsWith('agent:')) requests.inc({ outcome: 'gated' });
        return;
      }
      case 'gate.decided':
      case 'gate.expired': {
        const gate = await gateOf(event);
        if (!gate || gate.status === 'pending') return;
        decided.inc({ type: gate.type, outcome: gate.status });
        if (gate.status !== 'expired' && gate.status !== 'cancelled') ended.answered += 1;
        if (gate.status === 'approved') ended.approved += 1;
        if (isHumanDecision(gate) && gate.decision) {
          reviewers.observe(gate);
          const seconds = Math.max(0, gate.decision.decidedAt - gate.createdAt) / 1000;
          decisionTime.observe(seconds, { type: gate.type });
          exported?.decisionWait(seconds, gate.type);
        }
        return;
      }
      default:
        return;
    }
  }

  // Each node counts what it committed, so the counters of a cluster's nodes add up.
  const unsubscribe = ctx.bus.subscribe(
    (event) => {
      pendingWork = pendingWork
        .then(() => count(event))
        .catch((err: unknown) => ctx.log.warn({ err, type: event.type }, 'metrics could not count an event'));
    },
    { localOnly: true },
  );

  function rate(numerator: number, denominator: number): number {
    return denominator === 0 ? 0 : numerator / denominator;
  }

  return {
    observeHttp(method, route, status, seconds) {
      httpDuration.observe(seconds, { method, route, status: String(status) });
    },

    countRequest(outcome) {
      requests.inc({ outcome });
    },

    async render() {
      const pending = await ctx.store.read((tx) => tx.countGates({ status: 'pending' }));
      const analysis = analysisMetrics(await loadAnalysisHistory(ctx, await allGates(ctx)));
      const gated = requests.get({ outcome: 'gated' });
      const all = gated + requests.get({ outcome: 'allowed' }) + requests.get({ outcome: 'denied' });
      return `${[
        renderCounter(
          'gatehouse_http_requests_total',
          'HTTP requests by method, route and status.',
          http.entries(),
        ),
        httpDuration.render(),
        eventLoopDelay.render(),
        requests.render(),
        opened.render(),
        decided.render(),
        escalated.render(),
        decisionTime.render(),
        reviewers.render(),
        renderGauge('gatehouse_gates_pending', 'Gates waiting for a decision now.', pending),
        await renderNotifications(ctx),
        renderAnalysisGauges(analysis),
        renderGauge(
          'gatehouse_escalation_rate',
          'Share of agent requests that opened a gate, since this node started.',
          rate(gated, all),
        ),
        renderGauge(
          'gatehouse_approval_rate',
          'Share of ended gates that were approved, since this node started.',
          rate(ended.approved, ended.answered),
        ),
        [
          '# HELP gatehouse_log_dropped_total Log lines dropped because the log destination failed or fell behind.',
          '# TYPE gatehouse_log_dropped_total counter',
          `gatehouse_log_dropped_total ${ctx.logDropped()}`,
        ].join('\n'),
      ].join('\n')}\n`;
    },

    async summary() {
      const [gates, counts] = await Promise.all([allGates(ctx), requestCounts(ctx)]);
      const analysis = analysisMetrics(await loadAnalysisHistory(ctx, gates));
      return { ...summarize(gates, counts, ctx.clock.now()), analysis };
    },

    settled() {
      return pendingWork;
    },

    close() {
      unsubscribe();
      stopSampling();
    },
  };
}
