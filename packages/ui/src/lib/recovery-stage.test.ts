import type { RecoveryDocument } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { isStagePassed, recoveryView } from './recovery-stage.js';

function recovery(overrides: Partial<RecoveryDocument>): RecoveryDocument {
  return {
    key: 'lazy.placeholder|src/cart.ts|total',
    pattern: 'lazy.placeholder',
    file: 'src/cart.ts',
    name: 'total',
    line: 2,
    severity: 'high',
    status: 'recovering',
    attempts: 1,
    maxAttempts: 3,
    history: [{ attempt: 1, at: 0, fingerprint: 'f1', line: 2, message: 'placeholder body' }],
    gateId: null,
    escalatedBy: [],
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

describe('recoveryView', () => {
  it.each([
    [{ status: 'recovering' as const, attempts: 1 }, 'RETRY', 'attempt 1 of 3'],
    [{ status: 'recovering' as const, attempts: 0 }, 'DIAGNOSE', 'attempt 0 of 3'],
    [
      { status: 'escalated' as const, attempts: 3, escalatedBy: ['max_recovery_attempts'] },
      'ESCALATE',
      'attempt 3 of 3',
    ],
    [{ status: 'resolved' as const, attempts: 2 }, null, 'attempt 2 of 3'],
  ])('puts %o at stage %s', (overrides, stage, attemptText) => {
    const view = recoveryView(recovery(overrides));
    expect(view.stage).toBe(stage);
    expect(view.attemptText).toBe(attemptText);
  });

  it('says why a recovery escalated, in words', () => {
    const view = recoveryView(
      recovery({ status: 'escalated', attempts: 2, escalatedBy: ['infinite_loop', 'critical_severity'] }),
    );
    expect(view.escalationReasons).toEqual([
      'the agent repeated the same fix (loop)',
      'the finding is CRITICAL',
    ]);
  });

  it('gives no escalation reason to a recovery still in progress', () => {
    expect(recoveryView(recovery({ escalatedBy: ['max_recovery_attempts'] })).escalationReasons).toEqual([]);
  });
});

describe('isStagePassed', () => {
  it('marks the stages before the current one as passed', () => {
    expect(isStagePassed('PAUSE', 'RETRY')).toBe(true);
    expect(isStagePassed('RETRY', 'RETRY')).toBe(false);
    expect(isStagePassed('ESCALATE', 'RETRY')).toBe(false);
    expect(isStagePassed('ESCALATE', null)).toBe(true);
  });
});
