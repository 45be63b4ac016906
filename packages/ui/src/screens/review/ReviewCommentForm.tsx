import { useId, useRef, useState } from 'react';
import { errorText } from '../../api/client.js';

/**
 * A comment box with its own send button; the server's error shows under it, and the text stays
 * until the comment is saved.
 */
export function ReviewCommentForm({
  label,
  submitLabel = 'Comment',
  autoFocus = false,
  onSubmit,
  onAddToReview,
  onCancel,
}: {
  label: string;
  submitLabel?: string;
  autoFocus?: boolean;
  onSubmit(body: string): Promise<void>;
  /** Keeps the comment in the person's pending review instead of publishing it now. */
  onAddToReview?: ((body: string) => Promise<void>) | undefined;
  onCancel?: () => void;
}) {
  const id = useId();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);

  async function send(pending = false): Promise<void> {
    if (body.trim() === '') {
      setError('Write a comment first.');
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await (pending && onAddToReview ? onAddToReview(body.trim()) : onSubmit(body.trim()));
      setBody('');
    } catch (caught) {
      setError(errorText(caught));
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="review-comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        ref={input}
        value={body}
        rows={3}
        maxLength={20_000}
        // biome-ignore lint/a11y/noAutofocus: the person just asked for this box
        autoFocus={autoFocus}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          } else if (event.key === 'Escape' && onCancel) onCancel();
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={busy}
      />
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : submitLabel}
        </button>
        {onAddToReview && (
          <button type="button" disabled={busy} onClick={() => void send(true)}>
            Add to review
          </button>
        )}
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
