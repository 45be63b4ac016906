import {
  type GroupHealth,
  type ReviewerHealth,
  type ReviewFigures,
  type ReviewHealth,
  type ReviewHealthSettings,
  RISK_LEVELS,
  type RiskLevel,
  type Role,
} from 'gatehouse-hitl-protocol';
import {
  isBlindApproval,
  isFastHighRiskApproval,
  nearestRank,
  type ReviewDecision,
  secondsToDecide,
} from './review-decisions.js';
import { detectRubberStamping } from './review-stamping.js';

/** Thresholds of the review-health figures and the rubber-stamping detector. */
export const DEFAULT_REVIEW_HEALTH_SETTINGS: ReviewHealthSettings = {
  fastApprovalFloorSeconds: 10,
  minDecisions: 10,
  blindShare: 0.8,
  fastShare: 0.5,
  approveAllRate: 0.95,
  signalsToFlag: 2,
};

const DAY_MS = 86_400_000;

/** A gate that timed out (expired or escalated) while it waited on people. */
export interface ReviewTimeout {
  gateId: string;
  at: number;
  /** The role it waited on. */
  waitingOn: Role;
  assignees: readonly string[];
}

export interface Reviewer {
  id: string;
  name: string;
  role: Role;
  /** Not modelled yet; the role stands in as the group. */
  team?: string | null;
}

export interface ReviewHealthInput {
  decisions: readonly ReviewDecision[];
  timeouts: readonly ReviewTimeout[];
  reviewers: readonly Reviewer[];
  window: { from: number; to: number };
  settings?: Partial<ReviewHealthSettings>;
  now: number;
}

function durations(decisions: readonly ReviewDecision[]) {
  const byRisk = Object.fromEntries(RISK_LEVELS.map((risk) => [risk, [] as number[]])) as Record<
    RiskLevel,
    number[]
  >;
  for (const decision of decisions) byRisk[decision.risk].push(secondsToDecide(decision));
  return Object.fromEntries(
    RISK_LEVELS.map((risk) => {
      const sorted = byRisk[risk].sort((a, b) => a - b);
      return [
        risk,
        {
          count: sorted.length,
          medianSeconds: nearestRank(sorted, 0.5),
          p90Seconds: nearestRank(sorted, 0.9),
        },
      ];
    }),
  ) as ReviewFigures['timeToDecision'];
}

interface FigureInput {
  decisions: readonly ReviewDecision[];
  timeouts: number;
  allDecisions: number;
  settings: ReviewHealthSettings;
}

/** The figures of one slice of decisions: a reviewer, a group, or all of them. */
export function reviewFigures({ decisions, timeouts, allDecisions, settings }: FigureInput): ReviewFigures {
  const approvals = decisions.filter((d) => d.outcome === 'approved');
  return {
    decisions: decisions.length,
    approvals: approvals.length,
    approvalRate: decisions.length === 0 ? null : approvals.length / decisions.length,
    timeToDecision: durations(decisions),
    fastHighRiskApprovals: approvals.filter((d) =>
      isFastHighRiskApproval(d, settings.fastApprovalFloorSeconds),
    ).length,
    approvalsViewsKnown: approvals.filter((d) => d.viewed !== null).length,
    blindApprovals: approvals.filter(isBlindApproval).length,
    contradicted: approvals.filter((d) => d.contradicted).length,
    loadShare: allDecisions === 0 ? null : decisions.length / allDecisions,
    escalationsByTimeout: timeouts,
  };
}

function groupOf(reviewer: Reviewer | undefined): string {
  return reviewer?.team ?? reviewer?.role ?? 'unknown';
}

function inWindow(at: number, window: ReviewHealthInput['window']): boolean {
  return at >= window.from && at <= window.to;
}

function perReviewer(
  input: ReviewHealthInput,
  settings: ReviewHealthSettings,
  decisions: readonly ReviewDecision[],
) {
  const known = new Map(input.reviewers.map((r) => [r.id, r]));
  const ids = [...new Set(decisions.map((d) => d.reviewer))];
  const reviewers: ReviewerHealth[] = ids.map((id) => {
    const person = known.get(id);
    const timeouts = input.timeouts.filter(
      (t) => inWindow(t.at, input.window) && t.assignees.includes(id),
    ).length;
    return {
      reviewer: id,
      name: person?.name ?? id,
      group: groupOf(person),
      ...reviewFigures({
        decisions: decisions.filter((d) => d.reviewer === id),
        timeouts,
        allDecisions: decisions.length,
        settings,
      }),
    };
  });
  return reviewers.sort((a, b) => b.decisions - a.decisions || a.reviewer.localeCompare(b.reviewer));
}

function perGroup(
  input: ReviewHealthInput,
  settings: ReviewHealthSettings,
  decisions: readonly ReviewDecision[],
) {
  const known = new Map(input.reviewers.map((r) => [r.id, r]));
  const members = new Map<string, Set<string>>();
  for (const reviewer of input.reviewers) members.set(groupOf(reviewer), new Set());
  for (const decision of decisions) {
    const group = groupOf(known.get(decision.reviewer));
    members.set(group, (members.get(group) ?? new Set()).add(decision.reviewer));
  }
  const groups: GroupHealth[] = [...members.entries()].map(([group, people]) => ({
    group,
    reviewers: people.size,
    ...reviewFigures({
      decisions: decisions.filter((d) => people.has(d.reviewer)),
      timeouts: input.timeouts.filter((t) => inWindow(t.at, input.window) && t.waitingOn === group).length,
      allDecisions: decisions.length,
      settings,
    }),
  }));
  return groups
    .filter((g) => g.decisions > 0 || g.escalationsByTimeout > 0)
    .sort((a, b) => b.decisions - a.decisions);
}

function dayStarts(window: ReviewHealthInput['window']): number[] {
  const days: number[] = [];
  for (let day = Math.floor(window.from / DAY_MS) * DAY_MS; day < window.to; day += DAY_MS) days.push(day);
  return days;
}

function series(
  decisions: readonly ReviewDecision[],
  reviewers: readonly ReviewerHealth[],
  window: ReviewHealthInput['window'],
) {
  const days = dayStarts(window);
  const indexOf = (at: number) =>
    Math.max(0, Math.min(days.length - 1, Math.floor((at - (days[0] ?? 0)) / DAY_MS)));
  const timeToDecision = RISK_LEVELS.map((risk) => {
    const perDay = days.map(() => [] as number[]);
    for (const d of decisions) if (d.risk === risk) perDay[indexOf(d.decidedAt)]?.push(secondsToDecide(d));
    return {
      risk,
      medianSeconds: perDay.map((values) =>
        nearestRank(
          values.sort((a, b) => a - b),
          0.5,
        ),
      ),
    };
  });
  const approvals = reviewers.map(({ reviewer, name }) => {
    const counts = days.map(() => 0);
    for (const d of decisions) {
      if (d.reviewer !== reviewer || d.outcome !== 'approved') continue;
      const index = indexOf(d.decidedAt);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    return { reviewer, name, counts };
  });
  return { days, timeToDecision, approvals };
}

/**
 * Who reviews how: per reviewer and per group, over the decisions made in the window, with the
 * rubber-stamping flags and the series the plots draw.
 * @example computeReviewHealth({ decisions, timeouts: [], reviewers, window: { from, to }, now: to })
 */
export function computeReviewHealth(input: ReviewHealthInput): ReviewHealth {
  const settings = { ...DEFAULT_REVIEW_HEALTH_SETTINGS, ...input.settings };
  const decisions = input.decisions.filter((d) => inWindow(d.decidedAt, input.window));
  const reviewers = perReviewer(input, settings, decisions);
  const timeouts = input.timeouts.filter((t) => inWindow(t.at, input.window)).length;
  return {
    generatedAt: input.now,
    window: { ...input.window, days: Math.round((input.window.to - input.window.from) / DAY_MS) },
    settings,
    totals: reviewFigures({ decisions, timeouts, allDecisions: decisions.length, settings }),
    reviewers,
    groups: perGroup(input, settings, decisions),
    flags: detectRubberStamping({ decisions, reviewers, settings }),
    series: series(decisions, reviewers, input.window),
  };
}
