import type { ReviewSummary } from '../../api/reviews.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { Revealed } from '../../components/Revealed.js';

const VERB: Record<ReviewSummary['kind'], string> = {
  approve: 'approved',
  comment: 'reviewed',
  request_changes: 'requested changes',
};

/** The review's timeline: each submitted review and each request for changes, with its summary. */
export function ReviewTimeline({ summaries }: { summaries: readonly ReviewSummary[] }) {
  if (summaries.length === 0) return null;
  return (
    <ol className="review-timeline" aria-label="Reviews submitted">
      {summaries.map((summary) => (
        <li key={summary.id} className={`review-summary review-summary-${summary.kind}`}>
          <article aria-label={`${summary.authorName} ${VERB[summary.kind]} on revision ${summary.revision}`}>
            <p className="review-comment-meta">
              <strong>{summary.authorName}</strong> {VERB[summary.kind]} on revision {summary.revision}{' '}
              <span className="muted small">
                <RelativeTime at={summary.createdAt} />
              </span>
            </p>
            {summary.body !== '' && (
              <p className="review-comment-body">
                <Revealed text={summary.body} />
              </p>
            )}
          </article>
        </li>
      ))}
    </ol>
  );
}
