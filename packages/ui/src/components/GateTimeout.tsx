import type { Gate, Role } from 'gatehouse-hitl-core';
import { ROLE_LABEL } from '../app/roles.js';
import { Countdown } from './Countdown.js';
import { formatDateTime } from './time-format.js';
import { useNow } from './use-now.js';

const RANK: Record<Role, number> = { viewer: 0, developer: 1, tech_lead: 2, admin: 3 };

/** What the deadline does, as the server will apply it: `deny`, `escalate to Tech lead`, `proceed`. */
export function timeoutThen(gate: Pick<Gate, 'timeoutAction' | 'escalationChain' | 'minRole'>): string {
  switch (gate.timeoutAction) {
    case 'deny':
      return 'deny';
    case 'proceed':
      return 'proceed (the agent goes ahead on its own)';
    case 'escalate': {
      const next = gate.escalationChain.find((role) => RANK[role] > RANK[gate.minRole]);
      return next === undefined
        ? 'deny (no higher role left to escalate to)'
        : `escalate to ${ROLE_LABEL[next].toLowerCase()}`;
    }
  }
}

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
