import { type ReactNode, useState } from 'react';
import { errorText } from '../../api/client.js';
import {
  addReviewComment,
  applyReviewSuggestion,
  type ReviewComment,
  resolveReviewThread,
} from '../../api/reviews.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { Revealed } from '../../components/Revealed.js';
import { ReviewCommentForm } from './ReviewCommentForm.js';
import type { ReviewThread } from './review-threads.js';

function CommentBody({ comment, children }: { comment: ReviewComment; children?: ReactNode }) {
  return (
    <li className="review-comment">
      <p className="review-comment-meta">
        <strong>{comment.authorName}</strong>
        {comment.author.startsWith('agent:') && <span className="badge badge-neutral">agent</span>}{' '}
        <span className="muted small">
          <RelativeTime at={comment.createdAt} />
        </span>
      </p>
      <p className="review-comment-body">
        <Revealed text={comment.body} />
      </p>
      {children}
    </li>
  );
}

function where(root: ReviewComment): string {
  if (root.path === null) return 'the review';
  if (root.line === null) return root.path;
  return root.startLine === null
    ? `line ${root.line} of ${root.path}`
    : `lines ${root.startLine}-${root.line} of ${root.path}`;
}

/** A comment's suggested lines, with "Apply suggestion" for people while it can still apply. */
function Suggestion({
  reviewId,
  comment,
  canApply,
  onChanged,
}: {
  reviewId: string;
  comment: ReviewComment;
  canApply: boolean;
  onChanged(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (comment.suggestion === null) return null;
  async function apply(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await applyReviewSuggestion(reviewId, comment.id);
      onChanged();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="review-suggestion">
      <p className="muted small">Suggested change</p>
      <pre className="mono">
        <Revealed text={comment.suggestion} />
      </pre>
      {canApply && !comment.outdated && (
        <button type="button" onClick={() => void apply()} disabled={busy}>
          {busy ? 'Applying…' : 'Apply suggestion'}
        </button>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * One thread: its comments, "outdated" when its line changed since, and (for people who may) a
 * reply box and resolve or reopen.
 */
export function ReviewThreadView({
  reviewId,
  thread,
  canReply,
  onChanged,
}: {
  reviewId: string;
  thread: ReviewThread;
  canReply: boolean;
  onChanged(): void;
}) {
  const { root } = thread;
  const [replying, setReplying] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(!root.resolved);

  async function toggleResolved(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await resolveReviewThread(reviewId, root.id, !root.resolved);
      setOpen(root.resolved);
      onChanged();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  const label = `Thread on ${where(root)}`;
  return (
    <article className={`review-thread${root.resolved ? ' review-thread-resolved' : ''}`} aria-label={label}>
      <div className="row review-thread-head">
        {root.pending && <span className="badge badge-neutral">Pending</span>}
        {root.outdated && <span className="badge badge-warn">Outdated</span>}
        {root.resolved && <span className="badge badge-neutral">Resolved</span>}
        {root.outdated && root.line !== null && (
          <span className="muted small">
            {`Was on line ${root.line}`}
            {root.lineText !== null && (
              <>
                :{' '}
                <code>
                  <Revealed text={root.lineText} />
                </code>
              </>
            )}
          </span>
        )}
        {root.resolved && (
          <button type="button" className="button-link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide' : `Show ${thread.replies.length + 1} comment(s)`}
          </button>
        )}
      </div>
      {open && (
        <ol className="review-comments">
          <CommentBody comment={root}>
            <Suggestion reviewId={reviewId} comment={root} canApply={canReply} onChanged={onChanged} />
          </CommentBody>
          {thread.replies.map((reply) => (
            <CommentBody key={reply.id} comment={reply} />
          ))}
        </ol>
      )}
      {canReply && open && replying && (
        <ReviewCommentForm
          label={`Reply to the thread on ${where(root)}`}
          submitLabel="Reply"
          autoFocus
          onCancel={() => setReplying(false)}
          onSubmit={async (body) => {
            await addReviewComment(reviewId, { body, parentId: root.id });
            setReplying(false);
            onChanged();
          }}
        />
      )}
      {canReply && (
        <div className="row">
          {open && !replying && (
            <button type="button" onClick={() => setReplying(true)}>
              Reply
            </button>
          )}
          {!root.pending && (
            <button type="button" onClick={() => void toggleResolved()} disabled={busy}>
              {root.resolved ? 'Reopen' : 'Resolve'}
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
