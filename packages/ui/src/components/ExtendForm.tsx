import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { type FormEvent, useId, useState } from 'react';
import { errorText } from '../api/client.js';
import { extendGate } from '../api/gate-review.js';
import { formatDateTime } from './time-format.js';

const CHOICES: readonly { seconds: number; label: string }[] = [
  { seconds: 15 * 60, label: '15 minutes' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 4 * 3600, label: '4 hours' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
];

/** Snooze / extend: moves a pending gate's deadline later, to a chosen time from now. */
export function ExtendForm({
  gate,
  blocked,
  onExtended,
}: {
  gate: Gate;
  blocked: string | null;
  onExtended(gate: Gate): void;
}) {
  const id = useId();
  const [seconds, setSeconds] = useState(3600);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const next = await extendGate(gate.id, seconds);
      onExtended(next);
      setDone(
        next.timeoutAt === null ? 'Deadline removed.' : `New deadline: ${formatDateTime(next.timeoutAt)}.`,
      );
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const disabled = blocked !== null || busy;
  return (
    <form className="manage-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Snooze / extend</h3>
      <div className="field">
        <label htmlFor={`${id}-when`}>New deadline, from now</label>
        <div className="row">
          <select
            id={`${id}-when`}
            value={seconds}
            onChange={(event) => setSeconds(Number(event.target.value))}
            disabled={disabled}
          >
            {CHOICES.map((choice) => (
              <option key={choice.seconds} value={choice.seconds}>
                {choice.label}
              </option>
            ))}
          </select>
          <button type="submit" disabled={disabled}>
            Extend deadline
          </button>
        </div>
      </div>
      {blocked && <p className="muted small">{blocked}</p>}
      <p aria-live="polite" className="small">
        {done}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
