import type { ReviewerHealth } from '../../api/review-health.js';
import { percent, seconds } from '../../lib/run-labels.js';

function highRisk(row: ReviewerHealth): { median: number | null; p90: number | null } {
  const high = row.timeToDecision.high;
  const critical = row.timeToDecision.critical;
  // The busier of the two stands for "high risk" in the table; the charts show each risk.
  const pick = critical.count > high.count ? critical : high;
  return { median: pick.medianSeconds, p90: pick.p90Seconds };
}

/** Every reviewer's figures in the window, most decisions first. */
export function ReviewerTable({
  reviewers,
  flagged,
}: {
  reviewers: readonly ReviewerHealth[];
  flagged: ReadonlySet<string>;
}) {
  if (reviewers.length === 0) return <p className="muted">Nobody decided a gate in this window.</p>;
  return (
    <div className="table-scroll">
      <table className="stack-on-phone">
        <caption className="visually-hidden">Review figures per reviewer</caption>
        <thead>
          <tr>
            <th scope="col">Reviewer</th>
            <th scope="col">Decisions</th>
            <th scope="col">Approval rate</th>
            <th scope="col">High risk: median, p90</th>
            <th scope="col">Fast high-risk approvals</th>
            <th scope="col">Approved without opening anything</th>
            <th scope="col">Contradicted</th>
            <th scope="col">Share of load</th>
            <th scope="col">Timed out</th>
          </tr>
        </thead>
        <tbody>
          {reviewers.map((row) => {
            const high = highRisk(row);
            return (
              <tr key={row.reviewer}>
                <th scope="row" data-label="Reviewer">
                  {row.name} <span className="muted small">({row.group.replaceAll('_', ' ')})</span>
                  {flagged.has(row.reviewer) && <span className="badge risk-high">Rubber-stamping</span>}
                </th>
                <td data-label="Decisions">{row.decisions}</td>
                <td data-label="Approval rate">{percent(row.approvalRate)}</td>
                <td data-label="High risk: median, p90">
                  {seconds(high.median)}, {seconds(high.p90)}
                </td>
                <td data-label="Fast high-risk approvals">{row.fastHighRiskApprovals}</td>
                <td data-label="Approved without opening anything">
                  {row.blindApprovals} of {row.approvalsViewsKnown}
                </td>
                <td data-label="Contradicted">{row.contradicted}</td>
                <td data-label="Share of load">{percent(row.loadShare)}</td>
                <td data-label="Timed out">{row.escalationsByTimeout}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
