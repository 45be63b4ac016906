import { Link } from 'wouter';
import type { StreamStatus } from '../../api/events.js';
import type { ReviewDocument } from '../../api/reviews.js';
import { LiveStatus } from '../../components/LiveStatus.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { useRunTitles } from '../../components/use-run-titles.js';
import { phaseLabel } from '../../lib/run-labels.js';

export const REVIEW_STATUS_TEXT: Record<ReviewDocument['status'], string> = {
  open: 'Open',
  changes_requested: 'Changes requested',
  merged: 'Merged',
  closed: 'Closed',
};

const short = (commit: string) => commit.slice(0, 10);

/** What is under review, its state, the files that conflict with main and, once merged, the commit. */
export function ReviewHeader({ review, stream }: { review: ReviewDocument; stream: StreamStatus }) {
  // People know a run by its title; the id stays for a run without one.
  const runTitle = useRunTitles([review.runId]);
  return (
    <header className="review-head">
      <p className="breadcrumb">
        <Link href={`/runs/${encodeURIComponent(review.runId)}`}>
          Run {runTitle(review.runId) ?? review.runId}
        </Link>
        {review.gateId && (
          <>
            {' · '}
            <Link href={`/gates/${encodeURIComponent(review.gateId)}`}>Phase review gate</Link>
          </>
        )}
      </p>
      <div className="row screen-title">
        <h1>
          Review of <span className="mono">{review.branch}</span>
        </h1>
        <LiveStatus status={stream} />
      </div>
      <dl className="facts review-facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge review-state-${review.status}`}>{REVIEW_STATUS_TEXT[review.status]}</span>
            {review.autoMerged && (
              <span className="muted small"> (merged at once by the autonomy level)</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Phase</dt>
          <dd>
            {phaseLabel(review.phase, review.type)}
            {review.jobComplete && ' · final review'}
          </dd>
        </div>
        <div>
          <dt>Revision</dt>
          <dd>{review.revision}</dd>
        </div>
        <div>
          <dt>Head</dt>
          <dd className="mono" title={review.headCommit}>
            {short(review.headCommit)}
          </dd>
        </div>
        <div>
          <dt>Base (main)</dt>
          <dd className="mono" title={review.baseCommit}>
            {short(review.baseCommit)}
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>
            <RelativeTime at={review.updatedAt} />
          </dd>
        </div>
        {review.mergeCommit && (
          <div>
            <dt>Merge commit</dt>
            <dd className="mono" title={review.mergeCommit}>
              {short(review.mergeCommit)}
            </dd>
          </div>
        )}
      </dl>
      {review.conflicts.length > 0 && (
        <div className="notice error review-conflicts" role="alert">
          <p>
            <strong>This branch conflicts with main</strong> and cannot be merged until the agent updates it.
            Conflicting files:
          </p>
          <ul>
            {review.conflicts.map((path) => (
              <li key={path} className="mono">
                {path}
              </li>
            ))}
          </ul>
        </div>
      )}
      {review.status === 'merged' && review.mergeCommit && (
        <p className="notice ok">
          Squash-merged into main as <span className="mono">{review.mergeCommit}</span>; the branch is
          deleted.
        </p>
      )}
    </header>
  );
}
