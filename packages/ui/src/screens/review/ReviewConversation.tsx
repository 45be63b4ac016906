import { useId } from 'react';
import { addReviewComment, type ReviewVerdictDocument } from '../../api/reviews.js';
import { ReviewCommentForm } from './ReviewCommentForm.js';
import { ReviewThreadView } from './ReviewThreadView.js';
import { ReviewVerdictControls } from './ReviewVerdictControls.js';
import type { ReviewThread } from './review-threads.js';

/** Comments on the review as a whole, a box for a new one, and the verdicts on the whole review. */
export function ReviewConversation({
  reviewId,
  threads,
  verdicts,
  myAuthor,
  canComment,
  canGiveVerdict,
  onChanged,
}: {
  reviewId: string;
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
        />
      )}
    </section>
  );
}
