import type { GateViewPart, RiskLevel } from 'gatehouse-hitl-protocol';

/** One gate a person ended, with what they opened before deciding. */
export interface ReviewDecision {
  gateId: string;
  reviewer: string;
  risk: RiskLevel;
  openedAt: number;
  decidedAt: number;
  outcome: 'approved' | 'rejected' | 'steered' | 'resolved';
  /** Parts the reviewer opened before deciding; null where the channel cannot tell (Slack, email). */
  viewed: readonly GateViewPart[] | null;
  /** Approved, then the run failed or a later decision rolled the change back. */
  contradicted: boolean;
}

/** The q-quantile (0..1) of sorted values by the nearest-rank method. */
export function nearestRank(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

/** Seconds from the gate opening to the decision, never negative. */
export function secondsToDecide(decision: ReviewDecision): number {
  return Math.max(0, decision.decidedAt - decision.openedAt) / 1000;
}

export function isHighRisk(risk: RiskLevel): boolean {
  return risk === 'high' || risk === 'critical';
}

/** An approval where the channel reports views and none of the diff, arguments or findings was opened. */
export function isBlindApproval(decision: ReviewDecision): boolean {
  return decision.outcome === 'approved' && decision.viewed !== null && decision.viewed.length === 0;
}

/** A high or critical approval decided faster than the floor. */
export function isFastHighRiskApproval(decision: ReviewDecision, floorSeconds: number): boolean {
  return (
    decision.outcome === 'approved' && isHighRisk(decision.risk) && secondsToDecide(decision) < floorSeconds
  );
}

/** What is known of an approved gate's run after the approval. */
export interface AfterApproval {
  /** The run's status now and when it last changed; null for a gate without a run. */
  run: { status: string; updatedAt: number } | null;
  /** Later decisions in the same run: the option chosen and when. */
  laterDecisions: readonly { option: string; decidedAt: number }[];
}

const ROLLBACK_OPTION = /rollback|revert/;

/** Approved, then the run failed or a later decision in the run rolled the change back. */
export function isContradicted(
  decision: Pick<ReviewDecision, 'outcome' | 'decidedAt'>,
  after: AfterApproval,
): boolean {
  if (decision.outcome !== 'approved') return false;
  if (after.run?.status === 'failed' && after.run.updatedAt >= decision.decidedAt) return true;
  return after.laterDecisions.some((d) => d.decidedAt > decision.decidedAt && ROLLBACK_OPTION.test(d.option));
}
