import type {
  ReviewerHealth,
  ReviewHealthSettings,
  RubberStampFlag,
  RubberStampSignal,
} from 'gatehouse-hitl-protocol';
import {
  isBlindApproval,
  isFastHighRiskApproval,
  isHighRisk,
  nearestRank,
  type ReviewDecision,
  secondsToDecide,
} from './review-decisions.js';

const MAX_FLAGGED_GATES = 20;
/** Fewer high-risk approvals than this say nothing about speed on high risk. */
const MIN_HIGH_RISK_APPROVALS = 3;

export interface StampingInput {
  decisions: readonly ReviewDecision[];
  reviewers: readonly ReviewerHealth[];
  settings: ReviewHealthSettings;
}

interface Evidence {
  signals: RubberStampSignal[];
  highRiskApprovals: ReviewDecision[];
  approvals: ReviewDecision[];
  blind: number;
  viewsKnown: number;
}

function evidenceOf(
  figures: ReviewerHealth,
  own: readonly ReviewDecision[],
  settings: ReviewHealthSettings,
): Evidence {
  const approvals = own.filter((d) => d.outcome === 'approved');
  const highRiskApprovals = approvals.filter((d) => isHighRisk(d.risk));
  const signals: RubberStampSignal[] = [];
  const { blindApprovals: blind, approvalsViewsKnown: viewsKnown } = figures;
  if (viewsKnown > 0 && viewsKnown * 2 >= approvals.length && blind / viewsKnown >= settings.blindShare)
    signals.push('blind');
  if (
    highRiskApprovals.length >= MIN_HIGH_RISK_APPROVALS &&
    figures.fastHighRiskApprovals / highRiskApprovals.length >= settings.fastShare
  )
    signals.push('fast');
  if ((figures.approvalRate ?? 0) >= settings.approveAllRate) signals.push('approves_all');
  return { signals, highRiskApprovals, approvals, blind, viewsKnown };
}

function formatSeconds(seconds: number): string {
  return seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds)} s`;
}

/** The pattern in words, e.g. "approves high-risk in a median 1.4 s and opened nothing in 38 of 40 approvals". */
function describeStamping(figures: ReviewerHealth, evidence: Evidence): string {
  const parts: string[] = [];
  const times = evidence.highRiskApprovals.map(secondsToDecide).sort((a, b) => a - b);
  const median = nearestRank(times, 0.5);
  if (median !== null) parts.push(`approves high-risk in a median ${formatSeconds(median)}`);
  if (evidence.viewsKnown > 0)
    parts.push(`opened nothing in ${evidence.blind} of ${evidence.viewsKnown} approvals`);
  parts.push(`approved ${figures.approvals} of ${figures.decisions} decisions`);
  const last = parts.pop() ?? '';
  return parts.length === 0 ? last : `${parts.join(', ')} and ${last}`;
}

/**
 * Names reviewers whose approvals look like rubber stamps: at least `signalsToFlag` of opening
 * nothing, approving high risk faster than the floor, and approving nearly everything.
 */
export function detectRubberStamping({ decisions, reviewers, settings }: StampingInput): RubberStampFlag[] {
  const flags: RubberStampFlag[] = [];
  for (const figures of reviewers) {
    if (figures.decisions < settings.minDecisions) continue;
    const own = decisions.filter((d) => d.reviewer === figures.reviewer);
    const evidence = evidenceOf(figures, own, settings);
    if (evidence.signals.length < settings.signalsToFlag) continue;
    const gateIds = evidence.approvals
      .filter((d) => isBlindApproval(d) || isFastHighRiskApproval(d, settings.fastApprovalFloorSeconds))
      .sort((a, b) => b.decidedAt - a.decidedAt)
      .slice(0, MAX_FLAGGED_GATES)
      .map((d) => d.gateId);
    flags.push({
      reviewer: figures.reviewer,
      name: figures.name,
      pattern: `${figures.name} ${describeStamping(figures, evidence)}`,
      signals: evidence.signals,
      gateIds,
    });
  }
  return flags;
}
