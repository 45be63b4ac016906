import { useId } from 'react';
import { addReviewComment, type ReviewSummary, type ReviewVerdictDocument } from '../../api/reviews.js';
import { ReviewCommentForm } from './ReviewCommentForm.js';
import { ReviewThreadView } from './ReviewThreadView.js';
import { ReviewTimeline } from './ReviewTimeline.js';
import { ReviewVerdictControls } from './ReviewVerdictControls.js';
import type { ReviewThread } from './review-threads.js';

/**
 * The review's timeline (submitted reviews, requests for changes), comments on the review as a whole,
 * a box for a new one, and the verdicts on the whole review.
 */
export function ReviewConversation({
  reviewId,
  summaries,
  threads,
  verdicts,
  myAuthor,
  canComment,
  canGiveVerdict,
  onChanged,
}: {
  reviewId: string;
  summaries: readonly ReviewSummary[];
  threads: ReviewThread[];
  verdicts: ReviewVerdictDocument[];
  myAuthor: string;
  canComment: boolean;
  canGiveVerdict: boolean;
  onChanged(): void;
}) {
  const id = useId();
  return (
    <section className="card review-conversation" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Conversation</h2>
      <ReviewVerdictControls
        reviewId={reviewId}
        path={null}
        verdicts={verdicts}
        myAuthor={myAuthor}
        canGive={canGiveVerdict}
        onChanged={onChanged}
      />
      <ReviewTimeline summaries={summaries} />
      {threads.length === 0 && <p className="muted">No general comments yet.</p>}
      {threads.map((thread) => (
        <ReviewThreadView
          key={thread.root.id}
          reviewId={reviewId}
          thread={thread}
          canReply={canComment}
          onChanged={onChanged}
        />
      ))}
      {canComment && (
        <ReviewCommentForm
          label="Add a general comment"
          onSubmit={async (body) => {
            await addReviewComment(reviewId, { body });
            onChanged();
          }}
          onAddToReview={async (body) => {
            await addReviewComment(reviewId, { body, pending: true });
            onChanged();
          }}
        />
      )}
    </section>
  );
}
