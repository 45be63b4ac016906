import { useState } from 'react';
import { errorText } from '../../api/client.js';
import { giveReviewVerdict, type ReviewVerdictDocument } from '../../api/reviews.js';
import { latestVerdicts, verdictOf } from './review-threads.js';

const VERDICT_TEXT: Record<ReviewVerdictDocument['verdict'], string> = {
  approve: 'approved',
  request_changes: 'requested changes',
};

/**
 * Approve or request changes on one file (or, with `path` null, the whole review); shows this
 * person's verdict as the pressed button and everyone else's as text.
 */
export function ReviewVerdictControls({
  reviewId,
  path,
  verdicts,
  myAuthor,
  canGive,
  onChanged,
}: {
  reviewId: string;
  path: string | null;
  verdicts: readonly ReviewVerdictDocument[];
  myAuthor: string;
  canGive: boolean;
  onChanged(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mine = verdictOf(verdicts, myAuthor, path)?.verdict ?? null;
  const others = latestVerdicts(verdicts, path).filter((verdict) => verdict.author !== myAuthor);
  const target = path ?? 'the whole review';

  async function give(verdict: ReviewVerdictDocument['verdict']): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await giveReviewVerdict(reviewId, { verdict, ...(path !== null ? { path } : {}) });
      onChanged();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="review-verdicts">
      {canGive ? (
        <fieldset className="row review-verdict-buttons">
          <legend className="visually-hidden">Your verdict on {target}</legend>
          <button
            type="button"
            aria-pressed={mine === 'approve'}
            aria-label={`Approve ${target}`}
            disabled={busy}
            onClick={() => void give('approve')}
          >
            Approve
          </button>
          <button
            type="button"
            aria-pressed={mine === 'request_changes'}
            aria-label={`Request changes on ${target}`}
            disabled={busy}
            onClick={() => void give('request_changes')}
          >
            Request changes
          </button>
        </fieldset>
      ) : (
        mine && <span className="small">You {VERDICT_TEXT[mine]}</span>
      )}
      {others.length > 0 && (
        <span className="muted small">
          {others.map((verdict) => `${verdict.authorName} ${VERDICT_TEXT[verdict.verdict]}`).join(' · ')}
        </span>
      )}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
