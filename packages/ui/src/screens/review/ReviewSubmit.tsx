import { useId, useRef, useState } from 'react';
import { errorText } from '../../api/client.js';
import { submitReview } from '../../api/reviews.js';

type Verdict = 'comment' | 'approve' | 'request_changes';

const VERDICTS: { value: Verdict; label: string; hint: string }[] = [
  { value: 'comment', label: 'Comment', hint: 'Feedback without a verdict.' },
  { value: 'approve', label: 'Approve', hint: 'Your verdict: ready to merge.' },
  { value: 'request_changes', label: 'Request changes', hint: 'Your verdict: it needs changes first.' },
];

/**
 * The person's pending review: how many comments wait in it, a summary and a verdict; submitting
 * publishes the comments and keeps the summary in the conversation. The gate's decision stays separate.
 */
export function ReviewSubmit({
  reviewId,
  pending,
  onSubmitted,
}: {
  reviewId: string;
  pending: number;
  onSubmitted(): void;
}) {
  const id = useId();
  const [verdict, setVerdict] = useState<Verdict>('comment');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const summary = useRef<HTMLTextAreaElement>(null);

  async function submit(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await submitReview(reviewId, { verdict, body: body.trim() });
      setBody('');
      setVerdict('comment');
      onSubmitted();
    } catch (caught) {
      setError(errorText(caught));
      summary.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="card review-submit"
      aria-labelledby={`${id}-heading`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id={`${id}-heading`}>Your review</h2>
      <p className="muted small" role="status">
        {pending === 0
          ? 'No pending comments: use “Add to review” on a comment to gather them here.'
          : `${pending} pending comment${pending === 1 ? '' : 's'}, seen only by you until you submit.`}
      </p>
      <label htmlFor={`${id}-summary`}>Summary</label>
      <textarea
        id={`${id}-summary`}
        ref={summary}
        value={body}
        rows={3}
        maxLength={20_000}
        onChange={(event) => setBody(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={busy}
      />
      <fieldset className="review-submit-verdicts">
        <legend>Verdict</legend>
        {VERDICTS.map((option) => (
          <div key={option.value} className="review-submit-verdict">
            <input
              type="radio"
              id={`${id}-${option.value}`}
              name={`${id}-verdict`}
              value={option.value}
              checked={verdict === option.value}
              onChange={() => setVerdict(option.value)}
              aria-describedby={`${id}-${option.value}-hint`}
              disabled={busy}
            />
            <label htmlFor={`${id}-${option.value}`}>{option.label}</label>
            <span id={`${id}-${option.value}-hint`} className="muted small">
              {option.hint}
            </span>
          </div>
        ))}
      </fieldset>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Submitting…' : 'Submit review'}
      </button>
    </form>
  );
}
