import { useState } from 'react';
import { Link } from 'wouter';
import { errorText } from '../api/client.js';
import { getReviewHealth, type ReviewHealth, type RubberStampFlag } from '../api/review-health.js';
import { useSession } from '../app/session.js';
import { Field } from '../components/Field.js';
import { formatDateTime } from '../components/time-format.js';
import { percent } from '../lib/run-labels.js';
import { useResource } from '../lib/use-resource.js';
import { ReviewerTable } from './review-health/ReviewerTable.js';
import { ApprovalsOverTimeChart, TimeByRiskChart } from './review-health/ReviewHealthCharts.js';

const WINDOWS = [7, 30, 90] as const;

function StampingAlert({ flags }: { flags: readonly RubberStampFlag[] }) {
  if (flags.length === 0) {
    return <p className="notice info">No reviewer shows a rubber-stamping pattern in this window.</p>;
  }
  return (
    <div className="notice warn" role="alert" aria-labelledby="stamping-title">
      <h2 id="stamping-title">Possible rubber-stamping</h2>
      <ul>
        {flags.map((flag) => (
          <li key={flag.reviewer}>
            <p>{flag.pattern}.</p>
            <p className="small">
              Gates:{' '}
              {flag.gateIds.map((id, index) => (
                <span key={id}>
                  {index > 0 && ', '}
                  <Link href={`/gates/${encodeURIComponent(id)}`}>{id}</Link>
                </span>
              ))}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Headline({ health }: { health: ReviewHealth }) {
  const { totals, settings } = health;
  const tiles = [
    ['Decisions', String(totals.decisions), `by ${health.reviewers.length} reviewers`],
    ['Approval rate', percent(totals.approvalRate), `${totals.approvals} approvals`],
    [
      'Fast high-risk approvals',
      String(totals.fastHighRiskApprovals),
      `under ${settings.fastApprovalFloorSeconds} s`,
    ],
    [
      'Approved without opening anything',
      String(totals.blindApprovals),
      `of ${totals.approvalsViewsKnown} from the web app`,
    ],
    ['Contradicted approvals', String(totals.contradicted), 'run failed or rolled back'],
    ['Timed out', String(totals.escalationsByTimeout), 'escalated or expired'],
  ] as const;
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

function Loaded({ health }: { health: ReviewHealth }) {
  const flagged = new Set(health.flags.map((flag) => flag.reviewer));
  return (
    <>
      <p className="muted">
        {formatDateTime(health.window.from)} to {formatDateTime(health.window.to)}. A reviewer is flagged
        after {health.settings.minDecisions} decisions when {health.settings.signalsToFlag} of these hold:
        nothing opened in {percent(health.settings.blindShare)} of approvals, high-risk approvals under{' '}
        {health.settings.fastApprovalFloorSeconds} s in {percent(health.settings.fastShare)} of them, an
        approval rate of {percent(health.settings.approveAllRate)} or more.
      </p>
      <StampingAlert flags={health.flags} />
      <Headline health={health} />
      <section className="card" aria-labelledby="time-by-risk-title">
        <h2 id="time-by-risk-title">Time to decision</h2>
        <TimeByRiskChart health={health} />
      </section>
      <section className="card" aria-labelledby="approvals-title">
        <h2 id="approvals-title">Approvals over time</h2>
        <ApprovalsOverTimeChart health={health} />
      </section>
      <section className="card" aria-labelledby="reviewers-title">
        <h2 id="reviewers-title">Per reviewer</h2>
        <ReviewerTable reviewers={health.reviewers} flagged={flagged} />
      </section>
    </>
  );
}

/** Is anyone really reviewing? Figures per reviewer, plots and the rubber-stamping alert (admins). */
export function ReviewHealthScreen() {
  const session = useSession();
  const [days, setDays] = useState<number>(30);
  const { resource, reload } = useResource(`review-health-${days}`, (signal) =>
    getReviewHealth(days, signal),
  );
  const header = (
    <div className="row screen-title">
      <h1>Review health</h1>
      <Field id="review-window" label="Window">
        {(wiring) => (
          <select {...wiring} value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {WINDOWS.map((each) => (
              <option key={each} value={each}>
                Last {each} days
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="button" onClick={reload}>
        Refresh
      </button>
    </div>
  );
  if (!session.can('admin')) {
    return (
      <main id="main" className="page ops-page">
        <h1>Review health</h1>
        <p className="notice info">Review health is for admins.</p>
      </main>
    );
  }
  return (
    <main id="main" className="page ops-page">
      {header}
      {resource.status === 'loading' && <p role="status">Loading review health…</p>}
      {resource.status === 'error' && (
        <p className="notice error" role="alert">
          Could not load review health: {errorText(resource.error)}
        </p>
      )}
      {resource.status === 'ready' && <Loaded health={resource.value} />}
    </main>
  );
}
