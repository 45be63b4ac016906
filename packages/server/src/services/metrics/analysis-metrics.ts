import type { Gate } from 'gatehouse-hitl-core';
import type { AnalysisMetrics } from 'gatehouse-hitl-protocol';
import type { RecoveryRecord, WhitelistRecord } from 'gatehouse-hitl-store';
import { isHumanDecision, quantile } from './metrics-summary.js';
import { renderGauge } from './prometheus.js';

/** The gate types the change analysis opens. */
export const ANALYSIS_GATE_TYPES = ['recovery_escalation', 'false_positive_override', 'destructive_action'];
const DAY_MS = 86_400_000;
const GROWTH_WINDOW_MS = 30 * DAY_MS;

/** Everything seed 001's analysis metrics are computed from. */
export interface AnalysisHistory {
  gates: readonly Gate[];
  recoveries: readonly RecoveryRecord[];
  detections: number;
  falsePositives: number;
  whitelists: readonly WhitelistRecord[];
  /** Changes analysed in runs (`analysis.recorded` audit events). */
  analysesInRuns: number;
  /** Each run's status now, by run id. */
  runStatus: ReadonlyMap<string, string>;
  now: number;
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

function decisionTime(gates: readonly Gate[]): AnalysisMetrics['humanDecisionTime'] {
  const seconds = gates
    .filter(isHumanDecision)
    .map((gate) => Math.max(0, (gate.decision?.decidedAt ?? gate.createdAt) - gate.createdAt) / 1000)
    .sort((a, b) => a - b);
  const total = seconds.reduce((sum, value) => sum + value, 0);
  return {
    count: seconds.length,
    averageSeconds: seconds.length === 0 ? null : total / seconds.length,
    medianSeconds: quantile(seconds, 0.5),
    p90Seconds: quantile(seconds, 0.9),
  };
}

function recoveryFigures(recoveries: readonly RecoveryRecord[]) {
  const escalated = recoveries.filter(
    (recovery) => recovery.gateId !== null || recovery.status === 'escalated',
  );
  const selfResolved = recoveries.filter(
    (recovery) => recovery.status === 'resolved' && recovery.gateId === null,
  );
  const attempts = escalated.reduce((sum, recovery) => sum + recovery.attempts, 0);
  return {
    escalationRate: ratio(escalated.length, recoveries.length),
    recoverySuccessRate: ratio(selfResolved.length, selfResolved.length + escalated.length),
    averageAttemptsBeforeEscalation: escalated.length === 0 ? null : attempts / escalated.length,
  };
}

function precision(gates: readonly Gate[]): number | null {
  const reviewed = gates.filter(
    (gate) =>
      gate.type === 'false_positive_override' &&
      gate.context.whitelistReview === undefined &&
      isHumanDecision(gate),
  );
  const option = (gate: Gate) => gate.decision?.option;
  const confirmed = reviewed.filter((gate) => option(gate) === 'violation').length;
  const refuted = reviewed.filter(
    (gate) => option(gate) === 'legitimate' || option(gate) === 'whitelist',
  ).length;
  return ratio(confirmed, confirmed + refuted);
}

function whitelistGrowth(
  entries: readonly WhitelistRecord[],
  now: number,
): AnalysisMetrics['whitelistGrowth'] {
  const since = now - GROWTH_WINDOW_MS;
  const recent = entries.filter((entry) => entry.createdAt >= since).length;
  const active = entries.filter((entry) => now < entry.expiresAt).length;
  return {
    active,
    expired: entries.length - active,
    createdLast30Days: recent,
    rate: ratio(recent, entries.length - recent),
  };
}

function destructiveFigures(gates: readonly Gate[], history: AnalysisHistory) {
  const destructive = gates.filter((gate) => gate.type === 'destructive_action');
  const decided = destructive.filter(isHumanDecision);
  const alternatives = decided.filter((gate) => gate.status === 'rejected' || gate.status === 'steered');
  const found = alternatives.filter(
    (gate) => gate.runId !== null && history.runStatus.get(gate.runId) === 'completed',
  );
  return {
    destructiveActionRate: ratio(destructive.length, history.analysesInRuns),
    approvalRate: ratio(decided.filter((gate) => gate.status === 'approved').length, decided.length),
    alternativeFoundRate: ratio(found.length, alternatives.length),
  };
}

/** Seed 001's analysis metrics from the stored history; docs/analysis.md defines each. */
export function analysisMetrics(history: AnalysisHistory): AnalysisMetrics {
  const gates = history.gates.filter((gate) => ANALYSIS_GATE_TYPES.includes(gate.type));
  return {
    ...recoveryFigures(history.recoveries),
    humanDecisionTime: decisionTime(gates),
    falsePositiveRate: ratio(history.falsePositives, history.detections),
    detectionPrecision: precision(gates),
    whitelistGrowth: whitelistGrowth(history.whitelists, history.now),
    ...destructiveFigures(gates, history),
  };
}

/** The analysis metrics as Prometheus gauges (a rate without a denominator is NaN). */
export function renderAnalysisGauges(metrics: AnalysisMetrics): string {
  const value = (rate: number | null) => rate ?? Number.NaN;
  const gauges: [string, string, number | null][] = [
    ['escalation_rate', 'Recoveries escalated to a person / recoveries started.', metrics.escalationRate],
    [
      'recovery_success_rate',
      'Recoveries the agent resolved without a gate / recoveries ended.',
      metrics.recoverySuccessRate,
    ],
    [
      'average_attempts_before_escalation',
      'Mean attempts of escalated recoveries.',
      metrics.averageAttemptsBeforeEscalation,
    ],
    [
      'decision_seconds_average',
      'Mean time to a person deciding an analysis gate.',
      metrics.humanDecisionTime.averageSeconds,
    ],
    [
      'decision_seconds_p50',
      'Median time to a person deciding an analysis gate.',
      metrics.humanDecisionTime.medianSeconds,
    ],
    [
      'decision_seconds_p90',
      '90th percentile time to a person deciding an analysis gate.',
      metrics.humanDecisionTime.p90Seconds,
    ],
    ['false_positive_rate', 'Confirmed false positives / detections.', metrics.falsePositiveRate],
    ['detection_precision', 'Violation / reviewed false-positive gates.', metrics.detectionPrecision],
    ['whitelist_active', 'Whitelist entries suppressing now.', metrics.whitelistGrowth.active],
    [
      'whitelist_growth_rate',
      'Entries created in 30 days / entries older than that.',
      metrics.whitelistGrowth.rate,
    ],
    [
      'destructive_action_rate',
      'destructive_action gates / changes analysed in runs.',
      metrics.destructiveActionRate,
    ],
    [
      'destructive_approval_rate',
      'destructive_action gates approved / decided by a person.',
      metrics.approvalRate,
    ],
    [
      'alternative_found_rate',
      'Rejected or steered destructive_action gates whose run completed.',
      metrics.alternativeFoundRate,
    ],
  ];
  return gauges
    .map(([name, help, rate]) => renderGauge(`gatehouse_analysis_${name}`, help, value(rate)))
    .join('\n');
}
