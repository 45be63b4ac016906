import { describe, expect, it } from 'vitest';
import { GATE_STATUSES } from './enums.js';
import { gateOutcome } from './gate-outcome.js';

describe('gateOutcome', () => {
  it.each([
    ['pending', null],
    ['approved', 'approved'],
    ['rejected', 'denied'],
    ['steered', 'steered'],
    ['expired', 'timed_out'],
    ['cancelled', 'cancelled'],
    ['resolved', 'resolved'],
  ] as const)('answers a %s gate with %s', (status, outcome) => {
    expect(gateOutcome(status)).toBe(outcome);
  });

  it('answers a resolved gate with the option that ended it', () => {
    expect(gateOutcome('resolved', 'retry')).toBe('retry');
  });

  it('has an answer for every status', () => {
    for (const status of GATE_STATUSES) expect(() => gateOutcome(status)).not.toThrow();
  });
});
