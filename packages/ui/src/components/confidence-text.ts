import type { BriefingConfidence } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { timeoutThen } from './gate-timeout-text.js';

const BAND_RANGE: Record<BriefingConfidence['band'], string> = {
  high: '0.8 and above',
  medium: '0.5 to 0.8',
  low: '0.2 to 0.5',
  zero: 'below 0.2',
};

type DeadlineFacts = Pick<Gate, 'status' | 'timeoutAt' | 'timeoutAction' | 'escalationChain' | 'minRole'>;

/**
 * What the band means for this gate: its range and what really happens at the gate's deadline
 * (the band alone never makes a gate go ahead; only a `proceed` timeout does).
 */
export function bandMeaning(band: BriefingConfidence['band'], gate: DeadlineFacts): string {
  const range = `${BAND_RANGE[band]}`;
  if (gate.status !== 'pending') return `${range}; this gate has ended.`;
  if (gate.timeoutAt === null) return `${range}; this gate waits for a person and has no deadline.`;
  if (gate.timeoutAction === 'proceed') {
    return `${range}; unless someone decides first, the agent goes ahead on its own at the deadline.`;
  }
  return `${range}; this gate waits for a person, and at the deadline it will ${timeoutThen(gate)}.`;
}
