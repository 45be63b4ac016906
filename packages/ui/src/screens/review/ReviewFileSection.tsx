import { memo, useCallback, useEffect, useId, useState } from 'react';
import { errorText } from '../../api/client.js';
import {
  addReviewComment,
  getReviewDiff,
  getReviewFile,
  markReviewFileViewed,
  type ReviewDocument,
  type ReviewFile,
  type ReviewVerdictDocument,
} from '../../api/reviews.js';
import { useResource } from '../../lib/use-resource.js';
import { ReviewCommentForm } from './ReviewCommentForm.js';
import { ReviewDiff } from './ReviewDiff.js';
import { ReviewEditor } from './ReviewEditor.js';
import type { LineCommentInput } from './ReviewLineCommentForm.js';
import { ReviewMarkdown } from './ReviewMarkdown.js';
import { ReviewThreadView } from './ReviewThreadView.js';
import { ReviewVerdictControls } from './ReviewVerdictControls.js';
import type { ReviewThread } from './review-threads.js';

const NO_THREADS = new Map<string, ReviewThread[]>();

const STATUS_TEXT: Record<ReviewFile['status'], string> = {
  added: 'Added',
  modified: 'Modified',
  deleted: 'Deleted',
  renamed: 'Renamed',
};

export interface ReviewFileSectionProps {
  review: ReviewDocument;
  file: ReviewFile;
  /** Show the changes since this earlier revision's head instead of against main. */
  since: number | null;
  /** Diffs side by side rather than unified. */
  split: boolean;
  /** The person marked the file viewed, and it is unchanged since. */
  viewed: boolean;
  canMarkViewed: boolean;
  startOpen: boolean;
  fileThreads: ReviewThread[];
  lineThreads: Map<string, ReviewThread[]>;
  openThreads: number;
  verdicts: ReviewVerdictDocument[];
  myAuthor: string;
  canComment: boolean;
  canEdit: boolean;
  onChanged(): void;
}

function FileDiff(props: ReviewFileSectionProps & { rendered: boolean }) {
  const { review, file, since } = props;
  const loadDiff = useCallback(
    (signal: AbortSignal) => getReviewDiff(review.id, file.path, signal, since),
    [review.id, file.path, since],
  );
  // A new head (the agent pushed, someone edited) reads the diff afresh.
  const { resource } = useResource(`${file.path}@${review.headCommit}~${since ?? ''}`, loadDiff);
  const comment = useCallback(
    async (anchor: { side: 'new' | 'old'; line: number }, input: LineCommentInput, pending: boolean) => {
      await addReviewComment(review.id, { ...input, path: file.path, ...anchor, pending });
      props.onChanged();
    },
    [review.id, file.path, props.onChanged],
  );
  if (resource.status === 'loading') return <p role="status">Loading the diff…</p>;
  if (resource.status === 'error') {
    return (
      <p className="notice error" role="alert">
        Could not load the diff of {file.path}: {errorText(resource.error)}
      </p>
    );
  }
  const diff = (
    <ReviewDiff
      reviewId={review.id}
      diff={resource.value}
      threads={since === null ? props.lineThreads : NO_THREADS}
      canComment={props.canComment && since === null}
      split={props.split}
      onComment={comment}
      onChanged={props.onChanged}
    />
  );
  if (!props.rendered) return diff;
  return (
    <div className="review-side-by-side">
      {diff}
      <RenderedMarkdown review={review} path={file.path} />
    </div>
  );
}

function RenderedMarkdown({ review, path }: { review: ReviewDocument; path: string }) {
  const load = useCallback(
    (signal: AbortSignal) => getReviewFile(review.id, path, 'head', signal),
    [review.id, path],
  );
  const { resource } = useResource(`${path}@${review.headCommit}`, load);
  if (resource.status === 'loading') return <p role="status">Rendering…</p>;
  if (resource.status === 'error')
    return (
      <p className="notice error">
        Could not read {path}: {errorText(resource.error)}
      </p>
    );
  const text = resource.value.text;
  if (text === null) return <p className="review-binary">Binary file</p>;
  return <ReviewMarkdown text={text} label={`${path} rendered`} />;
}

/** "Viewed": the person's own mark that they read the file; checking it folds the file away. */
function ViewedBox({
  reviewId,
  path,
  viewed,
  onChange,
}: {
  reviewId: string;
  path: string;
  viewed: boolean;
  onChange(viewed: boolean): void;
}) {
  const id = useId();
  const [checked, setChecked] = useState(viewed);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setChecked(viewed), [viewed]);
  return (
    <span className="review-viewed">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={async (event) => {
          const next = event.target.checked;
          setChecked(next);
          setError(null);
          try {
            await markReviewFileViewed(reviewId, path, next);
            onChange(next);
          } catch (caught) {
            setChecked(!next);
            setError(errorText(caught));
          }
        }}
      />
      <label htmlFor={id}>Viewed</label>
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

/**
 * One changed file: a header that opens and closes its diff, the counts, verdict controls and
 * "Edit"; inside, comments on the file, then the diff (and for markdown, the rendered file beside it).
 */
export const ReviewFileSection = memo(function ReviewFileSection(props: ReviewFileSectionProps) {
  const { review, file, canComment, canEdit } = props;
  const [open, setOpen] = useState(props.startOpen);
  const [editing, setEditing] = useState(false);
  const [rendered, setRendered] = useState(false);
  const [commenting, setCommenting] = useState(false);
  const isMarkdown = /\.(md|markdown)$/i.test(file.path) && file.status !== 'deleted' && !file.binary;
  const bodyId = `review-file-${encodeURIComponent(file.path)}`;

  return (
    <section className="review-file" aria-label={file.path}>
      <header className="review-file-head">
        <button
          type="button"
          className="review-file-toggle"
          aria-expanded={open}
          aria-controls={open ? bodyId : undefined}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> <span className="mono">{file.path}</span>
        </button>
        {file.oldPath && <span className="muted small">from {file.oldPath}</span>}
        <span className={`badge review-status-${file.status}`}>{STATUS_TEXT[file.status]}</span>
        {file.binary ? (
          <span className="muted small">binary</span>
        ) : (
          <span className="review-counts">
            <span className="review-added">+{file.added}</span>{' '}
            <span className="review-removed">−{file.removed}</span>
          </span>
        )}
        {props.openThreads > 0 && (
          <span className="badge badge-warn">{props.openThreads} open thread(s)</span>
        )}
        {props.canMarkViewed && (
          <ViewedBox
            reviewId={review.id}
            path={file.path}
            viewed={props.viewed}
            onChange={(viewed) => {
              if (viewed) setOpen(false);
              props.onChanged();
            }}
          />
        )}
        <ReviewVerdictControls
          reviewId={review.id}
          path={file.path}
          verdicts={props.verdicts}
          myAuthor={props.myAuthor}
          canGive={canEdit}
          onChanged={props.onChanged}
        />
      </header>
      {open && (
        <div id={bodyId} className="review-file-body">
          <div className="row review-file-tools">
            {isMarkdown && (
              <button type="button" aria-pressed={rendered} onClick={() => setRendered(!rendered)}>
                Rendered view
              </button>
            )}
            {canEdit && file.status !== 'deleted' && !file.binary && !editing && (
              <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${file.path}`}>
                Edit
              </button>
            )}
            {canComment && !commenting && (
              <button
                type="button"
                onClick={() => setCommenting(true)}
                aria-label={`Comment on ${file.path}`}
              >
                Comment
              </button>
            )}
          </div>
          {props.fileThreads.map((thread) => (
            <ReviewThreadView
              key={thread.root.id}
              reviewId={review.id}
              thread={thread}
              canReply={canComment}
              onChanged={props.onChanged}
            />
          ))}
          {commenting && (
            <ReviewCommentForm
              label={`Comment on ${file.path}`}
              autoFocus
              onCancel={() => setCommenting(false)}
              onSubmit={async (body) => {
                await addReviewComment(review.id, { body, path: file.path });
                setCommenting(false);
                props.onChanged();
              }}
              onAddToReview={async (body) => {
                await addReviewComment(review.id, { body, path: file.path, pending: true });
                setCommenting(false);
                props.onChanged();
              }}
            />
          )}
          {editing ? (
            <ReviewEditor
              review={review}
              path={file.path}
              onSaved={() => {
                setEditing(false);
                props.onChanged();
              }}
              onStale={props.onChanged}
              onClose={() => setEditing(false)}
            />
          ) : (
            <FileDiff {...props} rendered={rendered} />
          )}
        </div>
      )}
    </section>
  );
});
