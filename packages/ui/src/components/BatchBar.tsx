import { useEffect, useRef } from 'react';

export interface BatchBarProps {
  /** How many gates are shown and how many of them are selected. */
  shown: number;
  selected: number;
  reason: string;
  onReason(reason: string): void;
  onSelectAll(select: boolean): void;
  onDecide(option: 'approve' | 'reject'): void;
  busy: boolean;
}

/** Select gates, give one reason, approve or reject them together. */
export function BatchBar({ shown, selected, reason, onReason, onSelectAll, onDecide, busy }: BatchBarProps) {
  const all = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (all.current) all.current.indeterminate = selected > 0 && selected < shown;
  }, [selected, shown]);
  const none = selected === 0;
  return (
    <section className="batch-bar card" aria-label="Decide several gates">
      <div className="batch-select">
        <input
          ref={all}
          id="batch-select-all"
          type="checkbox"
          checked={shown > 0 && selected === shown}
          disabled={shown === 0 || busy}
          onChange={(event) => onSelectAll(event.target.checked)}
        />
        <label htmlFor="batch-select-all">Select all shown</label>
        <span className="muted" aria-live="polite">
          {selected} selected
        </span>
      </div>
      {none && !busy ? (
        <p className="muted batch-hint">Select gates to approve or reject them together.</p>
      ) : (
        <>
          <div className="batch-reason">
            <label htmlFor="batch-reason">Reason</label>
            <input
              id="batch-reason"
              value={reason}
              maxLength={2000}
              placeholder="One reason for every selected gate"
              onChange={(event) => onReason(event.target.value)}
            />
          </div>
          <div className="row batch-actions">
            <button type="button" className="primary" disabled={busy} onClick={() => onDecide('approve')}>
              Approve selected
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => onDecide('reject')}>
              Reject selected
            </button>
            {busy && (
              <span role="status" className="muted">
                Deciding…
              </span>
            )}
          </div>
        </>
      )}
    </section>
  );
}
