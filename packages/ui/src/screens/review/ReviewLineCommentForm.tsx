import { useId, useRef, useState } from 'react';
import { errorText } from '../../api/client.js';

/** What a line comment carries besides its text: the range's first line and a suggestion. */
export interface LineCommentInput {
  body: string;
  startLine?: number;
  suggestion?: string;
}

/**
 * A comment on a line of a diff: on the branch's side it may start a few lines earlier (a range) and
 * suggest replacement lines, which a person applies with one click as a commit.
 */
export function ReviewLineCommentForm({
  label,
  line,
  side,
  lineTexts,
  onSubmit,
  onCancel,
}: {
  label: string;
  line: number;
  side: 'new' | 'old';
  /** The new side's lines shown in the diff, by number, to prefill a suggestion. */
  lineTexts: ReadonlyMap<number, string>;
  onSubmit(input: LineCommentInput, pending: boolean): Promise<void>;
  onCancel(): void;
}) {
  const id = useId();
  const [body, setBody] = useState('');
  const [first, setFirst] = useState(String(line));
  const [suggesting, setSuggesting] = useState(false);
  const [suggestion, setSuggestion] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const startLine = Number(first);
  const validStart = Number.isInteger(startLine) && startLine >= 1 && startLine <= line;

  function rangeText(from: number): string {
    const texts: string[] = [];
    for (let number = from; number <= line; number++) texts.push(lineTexts.get(number) ?? '');
    return texts.join('\n');
  }

  async function send(pending: boolean): Promise<void> {
    if (body.trim() === '') {
      setError('Write a comment first.');
      input.current?.focus();
      return;
    }
    if (!validStart) {
      setError(`The first line is a number from 1 to ${line}.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(
        {
          body: body.trim(),
          ...(startLine === line ? {} : { startLine }),
          ...(suggesting ? { suggestion } : {}),
        },
        pending,
      );
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
        void send(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          void send(false);
        } else if (event.key === 'Escape') onCancel();
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
        autoFocus
        onChange={(event) => setBody(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={busy}
      />
      {side === 'new' && (
        <div className="row review-range">
          <label htmlFor={`${id}-first`}>From line</label>
          <input
            id={`${id}-first`}
            type="number"
            min={1}
            max={line}
            value={first}
            onChange={(event) => {
              setFirst(event.target.value);
              const from = Number(event.target.value);
              if (suggesting && Number.isInteger(from) && from >= 1 && from <= line)
                setSuggestion(rangeText(from));
            }}
            disabled={busy}
          />
          <span className="muted small">to line {line}</span>
          <button
            type="button"
            aria-pressed={suggesting}
            disabled={busy || !validStart}
            onClick={() => {
              if (!suggesting) setSuggestion(rangeText(startLine));
              setSuggesting(!suggesting);
            }}
          >
            Suggest a change
          </button>
        </div>
      )}
      {suggesting && (
        <>
          <label htmlFor={`${id}-suggestion`}>Suggested lines</label>
          <textarea
            id={`${id}-suggestion`}
            className="mono"
            value={suggestion}
            rows={Math.max(2, suggestion.split('\n').length)}
            onChange={(event) => setSuggestion(event.target.value)}
            disabled={busy}
          />
        </>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : 'Comment'}
        </button>
        <button type="button" disabled={busy} onClick={() => void send(true)}>
          Add to review
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
