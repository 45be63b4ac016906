import type { ReviewHealth } from 'gatehouse-hitl-protocol';

/** A notice about review itself (an alert or the digest), not about one gate. */
export interface ReviewNoticeContent {
  subject: string;
  text: string;
  /** The Review health screen. */
  url: string;
}

function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 100)} %`;
}

function seconds(value: number | null): string {
  return value === null ? '—' : `${value < 10 ? value.toFixed(1) : Math.round(value)} s`;
}

/** The rubber-stamping alert for one flagged reviewer: the pattern and the gates. */
export function stampingAlertOf(flag: ReviewHealth['flags'][number], url: string): ReviewNoticeContent {
  return {
    subject: `Gatehouse: ${flag.name} may be rubber-stamping`,
    text: [`${flag.pattern}.`, `Gates: ${flag.gateIds.join(', ')}`, `Review health: ${url}`].join('\n'),
    url,
  };
}

/** The digest of one period: totals, each reviewer's line and any flags. */
export function digestOf(health: ReviewHealth, url: string): ReviewNoticeContent {
  const { totals } = health;
  const high = totals.timeToDecision.high;
  const lines = [
    `Review health, last ${health.window.days} days: ${totals.decisions} decisions, approval rate ${percent(totals.approvalRate)}, ` +
      `high-risk median ${seconds(high.medianSeconds)} (p90 ${seconds(high.p90Seconds)}), ${totals.fastHighRiskApprovals} fast high-risk approvals, ` +
      `${totals.blindApprovals} of ${totals.approvalsViewsKnown} approvals with nothing opened, ${totals.contradicted} contradicted, ` +
      `${totals.escalationsByTimeout} timed out.`,
    '',
    ...health.reviewers.map(
      (r) =>
        `${r.name} (${r.group}): ${r.decisions} decisions (${percent(r.loadShare)} of the load), approval rate ${percent(r.approvalRate)}, ` +
        `${r.blindApprovals} of ${r.approvalsViewsKnown} approvals with nothing opened, ${r.contradicted} contradicted`,
    ),
    '',
    health.flags.length === 0
      ? 'Nobody shows a rubber-stamping pattern.'
      : `Possible rubber-stamping: ${health.flags.map((f) => f.pattern).join('; ')}.`,
    `Review health: ${url}`,
  ];
  return {
    subject: `Gatehouse review digest: ${totals.decisions} decisions, ${health.flags.length} flagged`,
    text: lines.join('\n'),
    url,
  };
}
