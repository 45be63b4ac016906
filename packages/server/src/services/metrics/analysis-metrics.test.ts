import { createGateCatalog, type Gate, openGate } from 'gatehouse-hitl-core';
import type { RecoveryRecord, WhitelistRecord } from 'gatehouse-hitl-store';
import { describe, expect, it } from 'vitest';
import { type AnalysisHistory, analysisMetrics, renderAnalysisGauges } from './analysis-metrics.js';

const catalog = createGateCatalog();
const DAY = 86_400_000;
const NOW = 100 * DAY;

function gate(
  id: string,
  type: string,
  decided?: { status: Gate['status']; option: string; seconds: number; runId?: string },
  context: Record<string, unknown> = {},
): Gate {
  const opened = {
    ...openGate({ type, agentId: 'agent_a', context }, { catalog, id, now: 0 }),
    runId: decided?.runId ?? null,
  };
  if (decided === undefined) return opened;
  return {
    ...opened,
    status: decided.status,
    decision: {
      option: decided.option,
      outcome: decided.status,
      decidedBy: 'user_lead',
      affectedArtifacts: [],
      decidedAt: decided.seconds * 1000,
    },
  } as Gate;
}

function recovery(status: RecoveryRecord['status'], attempts: number, gateId: string | null): RecoveryRecord {
  return {
    runId: 'run_1',
    key: `k${Math.random()}`,
    pattern: 'lazy.placeholder_body',
    file: 'a.ts',
    name: null,
    line: 1,
    severity: 'high',
    status,
    attempts,
    signatures: [],
    history: [],
    gateId,
    escalatedBy: [],
    createdAt: 0,
    updatedAt: 0,
  };
}

function entry(createdAt: number, expiresAt: number): WhitelistRecord {
  return {
    id: `wl_${createdAt}`,
    pattern: 'p',
    scope: 'global',
    path: null,
    agentId: null,
    justification: 'because it is fine',
    createdBy: 'user:user_lead',
    createdAt,
    expiresAt,
    reviewedAt: null,
    reviewGateId: null,
    sourceGateId: null,
    suppressed: 0,
  };
}

/** A known history: 4 recoveries, 3 false-positive reviews, 4 destructive gates, 10 analyses, 3 whitelists. */
function history(): AnalysisHistory {
  return {
    gates: [
      gate('r1', 'recovery_escalation', { status: 'resolved', option: 'retry', seconds: 60 }),
      gate('f1', 'false_positive_override', { status: 'resolved', option: 'violation', seconds: 120 }),
      gate('f2', 'false_positive_override', { status: 'resolved', option: 'violation', seconds: 30 }),
      gate('f3', 'false_positive_override', { status: 'resolved', option: 'legitimate', seconds: 90 }),
      gate(
        'f4',
        'false_positive_override',
        { status: 'resolved', option: 'whitelist', seconds: 10 },
        { whitelistReview: 'wl_1' },
      ),
      gate('d1', 'destructive_action', { status: 'approved', option: 'approve', seconds: 300 }),
      gate('d2', 'destructive_action', {
        status: 'rejected',
        option: 'reject',
        seconds: 600,
        runId: 'run_done',
      }),
      gate('d3', 'destructive_action', {
        status: 'steered',
        option: 'suggest',
        seconds: 900,
        runId: 'run_failed',
      }),
      gate('d4', 'destructive_action'),
      gate('t1', 'tool_call', { status: 'approved', option: 'approve', seconds: 5 }),
    ],
    recoveries: [
      recovery('resolved', 1, null),
      recovery('resolved', 2, null),
      recovery('escalated', 3, 'r1'),
      recovery('recovering', 1, null),
    ],
    detections: 40,
    falsePositives: 3,
    whitelists: [entry(0, 90 * DAY), entry(80 * DAY, 170 * DAY), entry(95 * DAY, 185 * DAY)],
    analysesInRuns: 10,
    runStatus: new Map([
      ['run_done', 'completed'],
      ['run_failed', 'failed'],
    ]),
    now: NOW,
  };
}

describe('analysisMetrics', () => {
  it('computes seed 001’s metrics from a known history', () => {
    expect(analysisMetrics(history())).toEqual({
      escalationRate: 1 / 4,
      recoverySuccessRate: 2 / 3,
      averageAttemptsBeforeEscalation: 3,
      // The analysis gates decided by a person: 60, 120, 30, 90, 10, 300, 600, 900 s (not the tool_call).
      humanDecisionTime: { count: 8, averageSeconds: 2110 / 8, medianSeconds: 90, p90Seconds: 900 },
      falsePositiveRate: 3 / 40,
      detectionPrecision: 2 / 3,
      whitelistGrowth: { active: 2, expired: 1, createdLast30Days: 2, rate: 2 },
      destructiveActionRate: 4 / 10,
      approvalRate: 1 / 3,
      alternativeFoundRate: 1 / 2,
    });
  });

  it('gives null rates without a denominator', () => {
    const empty = analysisMetrics({
      ...history(),
      gates: [],
      recoveries: [],
      detections: 0,
      whitelists: [],
      analysesInRuns: 0,
    });
    expect(empty).toMatchObject({
      escalationRate: null,
      recoverySuccessRate: null,
      averageAttemptsBeforeEscalation: null,
      falsePositiveRate: null,
      detectionPrecision: null,
      destructiveActionRate: null,
      approvalRate: null,
      alternativeFoundRate: null,
      humanDecisionTime: { count: 0, averageSeconds: null, medianSeconds: null, p90Seconds: null },
    });
  });

  it('renders each metric as a gauge', () => {
    const text = renderAnalysisGauges(analysisMetrics(history()));
    expect(text).toContain('# TYPE gatehouse_analysis_false_positive_rate gauge');
    expect(text).toContain('gatehouse_analysis_false_positive_rate 0.075');
    expect(text).toContain('gatehouse_analysis_destructive_action_rate 0.4');
    expect(text.match(/^# TYPE /gm)).toHaveLength(13);
  });
});
