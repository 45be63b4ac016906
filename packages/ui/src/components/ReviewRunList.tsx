import { useCallback } from 'react';
import { Link } from 'wouter';
import { errorText } from '../api/client.js';
import { listRunReviews, type ReviewDocument } from '../api/reviews.js';
import { phaseLabel } from '../lib/run-labels.js';
import { useResource } from '../lib/use-resource.js';

const STATUS_TEXT: Record<ReviewDocument['status'], string> = {
  open: 'open',
  changes_requested: 'changes requested',
  merged: 'merged',
  closed: 'closed',
};

/** A run's reviews (its phase branches' pull requests), newest state first, each linking to its screen. */
export function ReviewRunList({ runId, refreshKey }: { runId: string; refreshKey: string | number }) {
  const load = useCallback((signal: AbortSignal) => listRunReviews(runId, signal), [runId]);
  const { resource } = useResource(`${runId}#${refreshKey}`, load);
  return (
    <section className="card review-run-list" aria-labelledby="run-reviews-title">
      <h2 id="run-reviews-title">Reviews</h2>
      {resource.status === 'loading' && <p role="status">Loading the reviews…</p>}
      {resource.status === 'error' && (
        <p className="muted">Could not load the reviews: {errorText(resource.error)}</p>
      )}
      {resource.status === 'ready' &&
        (resource.value.length === 0 ? (
          <p className="muted">No phase branch has been reviewed yet.</p>
        ) : (
          <ul>
            {resource.value.map((review) => (
              <li key={review.id}>
                <Link href={`/reviews/${encodeURIComponent(review.id)}`}>
                  {phaseLabel(review.phase, review.type)}: <span className="mono">{review.branch}</span>
                </Link>{' '}
                <span className="muted small">
                  {STATUS_TEXT[review.status]}
                  {review.revision > 1 ? ` · revision ${review.revision}` : ''}
                  {review.autoMerged ? ' · merged at once' : ''}
                </span>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
