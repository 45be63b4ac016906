import { useId, useRef, useState } from 'react';
import { errorText } from '../../api/client.js';
import { decideGate } from '../../api/gate-review.js';
import { editSquashMessage, type ReviewDocument, type SquashMessage } from '../../api/reviews.js';
import { isLostRace } from '../../components/decision-form.js';
import { submitFormOnCtrlEnter } from '../../components/submit-keys.js';
import { useRevealOnOpen } from '../../components/use-reveal-on-open.js';

type Busy = 'approve' | 'request_changes' | null;

/**
 * Ends the phase gate: "Approve & merge" squash-merges the branch; "Request changes" sends the
 * agent back to work with feedback (required). The server's refusal (a conflict with main, the
 * gate decided elsewhere) shows under the button that caused it; either way the review reloads.
 */
export function ReviewDecision({
  review,
  squashMessage,
  openThreads,
  onDecided,
}: {
  review: ReviewDocument;
  /** The squash commit's title and body as the server would use them now. */
  squashMessage: SquashMessage;
  /** Unresolved threads: merging with any asks to confirm first, naming how many. */
  openThreads: number;
  onDecided(): void;
}) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [title, setTitle] = useState(squashMessage.title);
  const [body, setBody] = useState(squashMessage.body);
  const [feedback, setFeedback] = useState('');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [approveError, setApproveError] = useState<string | null>(null);
  const [changesError, setChangesError] = useState<string | null>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const changesForm = useRevealOnOpen<HTMLFormElement>(asking);
  const gateId = review.gateId;
  if (gateId === null) return null;

  async function decide(option: 'approve' | 'request_changes', gate: string): Promise<void> {
    const setError = option === 'approve' ? setApproveError : setChangesError;
    setApproveError(null);
    setChangesError(null);
    if (option === 'request_changes' && feedback.trim() === '') {
      setChangesError('Feedback is required for Request changes: tell the agent what to change.');
      feedbackRef.current?.focus();
      return;
    }
    setConfirming(false);
    if (option === 'approve' && title.trim() === '') {
      setApproveError('The squash commit needs a title.');
      return;
    }
    setBusy(option);
    try {
      const edited = title.trim() !== squashMessage.title || body.trim() !== squashMessage.body;
      if (option === 'approve' && edited) {
        await editSquashMessage(review.id, { title: title.trim(), body: body.trim() });
      }
      await decideGate(gate, option === 'approve' ? { option } : { option, feedback: feedback.trim() });
      setFeedback('');
      setAsking(false);
      onDecided();
    } catch (caught) {
      setError(
        isLostRace(caught)
          ? `This review was already decided elsewhere (${errorText(caught)}); showing it as it is now.`
          : errorText(caught),
      );
      // A refusal may have changed the review too (a merge conflict names its files there).
      onDecided();
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card review-decision" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Decision</h2>
      <fieldset className="review-squash">
        <legend>Squash commit</legend>
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          value={title}
          maxLength={200}
          onChange={(event) => setTitle(event.target.value)}
          disabled={busy !== null}
        />
        <label htmlFor={`${id}-body`}>Description</label>
        <textarea
          id={`${id}-body`}
          value={body}
          rows={3}
          maxLength={20_000}
          onChange={(event) => setBody(event.target.value)}
          aria-describedby={`${id}-trailers`}
          disabled={busy !== null}
        />
        <p id={`${id}-trailers`} className="muted small">
          Gatehouse adds the review and co-author trailers.
        </p>
      </fieldset>
      <div className="review-decision-approve">
        <button
          type="button"
          className="primary"
          disabled={busy !== null || confirming}
          aria-describedby={
            [openThreads > 0 ? `${id}-threads` : '', approveError ? `${id}-approve-error` : '']
              .filter(Boolean)
              .join(' ') || undefined
          }
          onClick={() => (openThreads > 0 ? setConfirming(true) : void decide('approve', gateId))}
        >
          {busy === 'approve' ? 'Merging…' : 'Approve & merge'}
        </button>
        {openThreads > 0 && (
          <p id={`${id}-threads`} className="muted small">
            {openThreads} open thread{openThreads === 1 ? '' : 's'}
          </p>
        )}
        {confirming && (
          <div className="notice warn review-merge-confirm" role="alert">
            <p>
              This review has {openThreads} open thread{openThreads === 1 ? '' : 's'}. Merge anyway?
            </p>
            <div className="row">
              <button type="button" className="primary" onClick={() => void decide('approve', gateId)}>
                Merge with {openThreads} open thread{openThreads === 1 ? '' : 's'}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {approveError && (
          <p id={`${id}-approve-error`} className="field-error" role="alert">
            {approveError}
          </p>
        )}
      </div>
      {asking ? (
        <form
          ref={changesForm}
          className="review-decision-changes"
          onKeyDown={submitFormOnCtrlEnter}
          onSubmit={(event) => {
            event.preventDefault();
            void decide('request_changes', gateId);
          }}
        >
          <label htmlFor={`${id}-feedback`}>Feedback for the agent (required)</label>
          <p id={`${id}-feedback-hint`} className="muted small">
            The agent also gets every comment of this review, with file, line and whether it is resolved.
          </p>
          <textarea
            id={`${id}-feedback`}
            ref={feedbackRef}
            value={feedback}
            rows={3}
            maxLength={20_000}
            onChange={(event) => setFeedback(event.target.value)}
            aria-invalid={changesError ? true : undefined}
            aria-describedby={`${id}-feedback-hint${changesError ? ` ${id}-changes-error` : ''}`}
            disabled={busy !== null}
          />
          {changesError && (
            <p id={`${id}-changes-error`} className="field-error" role="alert">
              {changesError}
            </p>
          )}
          <div className="row">
            <button type="submit" className="danger" disabled={busy !== null}>
              {busy === 'request_changes' ? 'Sending…' : 'Request changes'}
            </button>
            <button type="button" onClick={() => setAsking(false)} disabled={busy !== null}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" onClick={() => setAsking(true)} disabled={busy !== null}>
          Request changes…
        </button>
      )}
    </section>
  );
}
