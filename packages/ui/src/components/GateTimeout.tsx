import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { Countdown } from './Countdown.js';
import { timeoutThen } from './gate-timeout-text.js';
import { formatDateTime } from './time-format.js';
import { useNow } from './use-now.js';

/** "Times out in 4m 12s, then: deny", ticking; says when the deadline has passed or there is none. */
export function GateTimeout({ gate }: { gate: Gate }) {
  const now = useNow();
  if (gate.status !== 'pending') return null;
  if (gate.timeoutAt === null) {
    return <p className="gate-timeout">No timeout: the gate waits until someone decides.</p>;
  }
  const then = timeoutThen(gate);
  if (gate.timeoutAt <= now) {
    return (
      <p className="gate-timeout gate-timeout-passed">
        Times out now ({formatDateTime(gate.timeoutAt)}), then: {then}
      </p>
    );
  }
  return (
    <p className="gate-timeout">
      Times out <Countdown at={gate.timeoutAt} />, then: {then}
    </p>
  );
}
