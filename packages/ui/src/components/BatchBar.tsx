import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import type { ExcludedGate } from '../screens/inbox/batch-split.js';

export interface BatchBarProps {
  /** How many gates are shown and how many of them are selected. */
  shown: number;
  selected: number;
  /** How many selected gates a batch may end. */
  eligible: number;
  /** Selected gates a batch leaves out, with the reason. */
  excluded: readonly ExcludedGate[];
  reason: string;
  onReason(reason: string): void;
  onSelectAll(select: boolean): void;
  onDecide(option: 'approve' | 'reject'): void;
  busy: boolean;
}

function ExcludedList({ excluded }: { excluded: readonly ExcludedGate[] }) {
  if (excluded.length === 0) return null;
  return (
    <div className="batch-excluded notice warn">
      <p id="batch-excluded-heading">Left out: each of these must be opened and decided on its own.</p>
      <ul aria-label="Left out of the batch">
        {excluded.map(({ gate, reason }) => (
          <li key={gate.id}>
            <Link href={`/gates/${gate.id}`}>{gate.headline}</Link>: {reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Select gates, give one reason, approve or reject together the ones a batch may end. */
export function BatchBar(props: BatchBarProps) {
  const { shown, selected, eligible, excluded, reason, onReason, onSelectAll, onDecide, busy } = props;
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
        <p className="muted batch-hint">
          Select gates to approve or reject them together. High-risk, mandatory, signed, N-of-M, always-gated
          and destructive gates are always decided one at a time.
        </p>
      ) : (
        <>
          <p className="batch-eligible" aria-live="polite">
            {eligible} of {selected} selected can be decided together
          </p>
          <ExcludedList excluded={excluded} />
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
            <button
              type="button"
              className="primary"
              disabled={busy || eligible === 0}
              onClick={() => onDecide('approve')}
            >
              Approve {eligible} selected
            </button>
            <button
              type="button"
              className="danger"
              disabled={busy || eligible === 0}
              onClick={() => onDecide('reject')}
            >
              Reject {eligible} selected
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
