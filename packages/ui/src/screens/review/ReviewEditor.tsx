import { useCallback, useId, useState } from 'react';
import { ApiError, errorText } from '../../api/client.js';
import { editReviewFile, getReviewFile, type ReviewDocument } from '../../api/reviews.js';
import { useResource } from '../../lib/use-resource.js';

/** Whether the server refused an edit because the branch moved since the file was read. */
function isStaleHead(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

/**
 * Edits one file of the branch in the browser: the head version in a text area, committed to the
 * phase branch in this person's name. The edit names the head it was made on, so a push or another
 * edit in between is refused (409) instead of overwritten; the file then reloads and the unsaved
 * text stays at hand.
 */
export function ReviewEditor({
  review,
  path,
  onSaved,
  onStale,
  onClose,
}: {
  review: ReviewDocument;
  path: string;
  onSaved(): void;
  /** The branch moved: the review should reload. */
  onStale(): void;
  onClose(): void;
}) {
  const id = useId();
  const [generation, setGeneration] = useState(0);
  const load = useCallback(
    (signal: AbortSignal) => getReviewFile(review.id, path, 'head', signal),
    [review.id, path],
  );
  const { resource } = useResource(`${path}#${generation}`, load);
  const [text, setText] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [unsaved, setUnsaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (resource.status === 'loading') return <p role="status">Loading {path}…</p>;
  if (resource.status === 'error') {
    return (
      <p className="notice error" role="alert">
        Could not load {path}: {errorText(resource.error)}
      </p>
    );
  }
  const file = resource.value;
  if (file.binary || file.text === null)
    return <p className="notice warn">{path} is binary and cannot be edited here.</p>;
  const shown = text ?? file.text;

  async function save(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await editReviewFile(review.id, {
        path,
        text: shown,
        expectedHead: file.commit,
        ...(message.trim() ? { message: message.trim() } : {}),
      });
      onSaved();
    } catch (caught) {
      if (isStaleHead(caught)) {
        setError(
          `${review.branch} moved on while you were editing (a push or another person's edit), so nothing was committed. The file has reloaded with the new version; your text is kept below to copy from.`,
        );
        setUnsaved(shown);
        setText(null);
        setGeneration((n) => n + 1);
        onStale();
      } else setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="review-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={`${id}-text`}>Edit {path}</label>
      <textarea
        id={`${id}-text`}
        className="review-editor-text"
        value={shown}
        rows={Math.min(30, Math.max(8, shown.split('\n').length + 1))}
        spellCheck={false}
        onChange={(event) => setText(event.target.value)}
        disabled={busy}
      />
      <label htmlFor={`${id}-message`}>Commit message (optional)</label>
      <input
        id={`${id}-message`}
        className="review-editor-message"
        value={message}
        maxLength={2000}
        placeholder={`Edit ${path}`}
        onChange={(event) => setMessage(event.target.value)}
        disabled={busy}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {unsaved !== null && (
        <details className="review-unsaved">
          <summary>Your unsaved text</summary>
          <textarea readOnly value={unsaved} rows={8} aria-label={`Your unsaved text of ${path}`} />
        </details>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy || shown === file.text}>
          {busy ? 'Committing…' : `Commit to ${review.branch}`}
        </button>
        <button type="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
