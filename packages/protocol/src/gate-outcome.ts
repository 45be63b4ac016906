import type { GateStatus } from './gate-status.js';

/** The answer an agent sees: a fixed outcome, or the id of the gate-specific option that resolved the gate. */
export type GateOutcome = 'approved' | 'denied' | 'steered' | 'timed_out' | 'cancelled' | (string & {});

/**
 * The agent-facing outcome of a gate with this status, or null while it is pending: rejected is
 * `denied`, expired is `timed_out`, and a resolved gate answers with the option that ended it.
 * @example gateOutcome('rejected') // 'denied'
 */
export function gateOutcome(status: GateStatus, decidedOption?: string | null): GateOutcome | null {
  switch (status) {
    case 'pending':
      return null;
    case 'approved':
    case 'steered':
    case 'cancelled':
      return status;
    case 'rejected':
      return 'denied';
    case 'expired':
      return 'timed_out';
    case 'resolved':
      return decidedOption ?? 'resolved';
    default: {
      const unknown: never = status;
      throw new TypeError(`unknown gate status ${JSON.stringify(unknown)}`);
    }
  }
}
