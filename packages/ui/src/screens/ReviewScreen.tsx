import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, errorText } from '../api/client.js';
import { type StreamEvent, type StreamStatus, useEventStream } from '../api/events.js';
import {
  getReview,
  listReviewComments,
  listReviewFiles,
  type ReviewComment,
  type ReviewDocument,
  type ReviewFile,
  type ReviewSummary,
  type ReviewVerdictDocument,
  type SquashMessage,
} from '../api/reviews.js';
import { runEventsPath } from '../api/runs.js';
import { useSession } from '../app/session.js';
import { useResource } from '../lib/use-resource.js';
import { ReviewConversation } from './review/ReviewConversation.js';
import { ReviewDecision } from './review/ReviewDecision.js';
import { ReviewFileList } from './review/ReviewFileList.js';
import { ReviewHeader } from './review/ReviewHeader.js';
import { ReviewSubmit } from './review/ReviewSubmit.js';
import { indexThreads } from './review/review-threads.js';

interface LoadedReview {
  review: ReviewDocument;
  verdicts: ReviewVerdictDocument[];
  summaries: ReviewSummary[];
  squashMessage: SquashMessage;
  files: ReviewFile[];
  /** The files the person marked viewed (unchanged since). */
  viewed: string[];
  comments: ReviewComment[];
}

async function loadReview(id: string, signal: AbortSignal): Promise<LoadedReview> {
  const [{ review, verdicts, summaries, squashMessage }, { files, viewed }, comments] = await Promise.all([
    getReview(id, signal),
    listReviewFiles(id, signal),
    listReviewComments(id, signal),
  ]);
  return { review, verdicts, summaries, squashMessage, files, viewed, comments };
}

/** Events that change what a review shows: a push, a comment or verdict, the gate decided. */
const RELOADING_EVENTS = new Set<string>([
  'review.updated',
  'workspace.pushed',
  'gate.decided',
  'gate.opened',
]);

function useLiveReload(runId: string | null, reload: () => void): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const later = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    // A push brings several events at once: one reload for all of them.
    timer.current = setTimeout(reload, 150);
  }, [reload]);
  const onEvent = useCallback(
    (event: StreamEvent) => {
      if (RELOADING_EVENTS.has(event.type) || event.type.startsWith('review.')) later();
    },
    [later],
  );
  const onStatus = useCallback(
    (next: StreamStatus) => {
      setStatus(next);
      // Whatever happened while the stream was down is read afresh.
      if (next === 'live') later();
    },
    [later],
  );
  useEventStream(runId === null ? null : runEventsPath(runId), onEvent, onStatus);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  return status;
}

function Loaded({ value, reload, stream }: { value: LoadedReview; reload(): void; stream: StreamStatus }) {
  const session = useSession();
  const { review, verdicts, summaries, files, comments } = value;
  const threads = useMemo(() => indexThreads(comments), [comments]);
  const myAuthor = `user:${session.user.id}`;
  const isPerson = session.can('developer');
  const open = review.status === 'open';
  const canComment = isPerson && (open || review.status === 'changes_requested');
  const canEdit = isPerson && open;
  const pending = comments.filter((comment) => comment.pending && comment.author === myAuthor).length;
  const openThreads = comments.filter(
    (comment) => comment.parentId === null && !comment.resolved && !comment.pending,
  ).length;

  return (
    <>
      <ReviewHeader review={review} stream={stream} />
      {!isPerson && (
        <p className="notice info">
          You can read this review; commenting and deciding need the developer role.
        </p>
      )}
      {review.status === 'changes_requested' && (
        <p className="notice info">
          Changes were requested; the agent answers on the next revision of the branch, and this page shows it
          when it arrives.
        </p>
      )}
      <div className="review-layout">
        <div className="review-main">
          <ReviewFileList
            review={review}
            files={files}
            viewed={value.viewed}
            canMarkViewed
            threads={threads}
            verdicts={verdicts}
            myAuthor={myAuthor}
            canComment={canComment}
            canEdit={canEdit}
            onChanged={reload}
          />
        </div>
        <aside className="review-side">
          {isPerson && open && (
            <ReviewDecision
              review={review}
              squashMessage={value.squashMessage}
              openThreads={openThreads}
              onDecided={reload}
            />
          )}
          {canComment && <ReviewSubmit reviewId={review.id} pending={pending} onSubmitted={reload} />}
          <ReviewConversation
            reviewId={review.id}
            summaries={summaries}
            threads={threads.general}
            verdicts={verdicts}
            myAuthor={myAuthor}
            canComment={canComment}
            canGiveVerdict={canEdit}
            onChanged={reload}
          />
        </aside>
      </div>
    </>
  );
}

/**
 * A phase branch's review: what changed file by file, line comments and threads, verdicts, edits
 * in the browser, and the decision that merges it or sends the agent back; it follows the run live.
 */
export function ReviewScreen({ reviewId }: { reviewId: string }) {
  const load = useCallback((signal: AbortSignal) => loadReview(reviewId, signal), [reviewId]);
  const { resource, reload } = useResource(reviewId, load);
  const runId = resource.status === 'ready' ? resource.value.review.runId : null;
  const stream = useLiveReload(runId, reload);

  useEffect(() => {
    document.title =
      resource.status === 'ready'
        ? `Review ${resource.value.review.branch} · Gatehouse`
        : 'Review · Gatehouse';
    return () => {
      document.title = 'Gatehouse';
    };
  }, [resource]);

  if (resource.status === 'ready') {
    return (
      <main id="main" className="page review-page">
        <Loaded value={resource.value} reload={reload} stream={stream} />
      </main>
    );
  }
  const missing =
    resource.status === 'error' && resource.error instanceof ApiError && resource.error.status === 404;
  return (
    <main id="main" className="page review-page">
      <h1>Review {reviewId}</h1>
      {resource.status === 'loading' ? (
        <p role="status">Loading the review…</p>
      ) : (
        <div className="notice error" role="alert">
          <p>
            {missing
              ? `There is no review ${reviewId}.`
              : `Could not load the review: ${errorText(resource.error)}`}
          </p>
          <button type="button" onClick={reload}>
            Try again
          </button>
          <Link href="/runs">Back to runs</Link>
        </div>
      )}
    </main>
  );
}
