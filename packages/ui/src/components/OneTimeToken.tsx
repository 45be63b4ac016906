import { useEffect, useId, useRef, useState } from 'react';

/** A secret shown once: a read-only field, a copy button and a plain warning. */
export function OneTimeToken({ token, owner, onDone }: { token: string; owner: string; onDone: () => void }) {
  const field = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const warningId = useId();
  const fieldId = useId();

  useEffect(() => {
    heading.current?.focus();
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopied('copied');
    } catch {
      field.current?.select();
      setCopied('failed');
    }
  }

  return (
    <section className="notice warn one-time-token" aria-labelledby={`${fieldId}-title`}>
      <h2 id={`${fieldId}-title`} ref={heading} tabIndex={-1}>
        New token for {owner}
      </h2>
      <p id={warningId}>
        <strong>Copy it now: it is shown only this once.</strong> Gatehouse keeps only a hash, so it cannot
        show it again; if it is lost, issue a new one and revoke the old ones.
      </p>
      <label htmlFor={fieldId}>Token</label>
      <div className="row">
        <input
          id={fieldId}
          ref={field}
          className="mono token-field"
          readOnly
          value={token}
          aria-describedby={warningId}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          Copy token
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status" className="muted">
        {copied === 'copied' ? 'Copied to the clipboard.' : null}
        {copied === 'failed'
          ? 'Could not reach the clipboard; the token is selected — press Ctrl+C (⌘C).'
          : null}
      </p>
    </section>
  );
}
