import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../errors.js';
import { GATE_STATUSES } from '../schemas.js';
import {
  assertRunMayAct,
  holdBlocking,
  type RunHoldFacts,
  runHoldOf,
  settledRunStatus,
} from './run-state.js';

const facts = (overrides: Partial<RunHoldFacts> = {}): RunHoldFacts => ({
  status: 'running',
  autonomy: 'partial',
  latestIntent: { id: 'gate_intent', status: 'approved' },
  pendingReview: null,
  ...overrides,
});

function heldError(run: () => void): GatehouseError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    return error as GatehouseError;
  }
  throw new Error('expected RUN_HELD');
}

describe('a run’s hold', () => {
  it('holds a partial run that never sent a plan, naming what to do', () => {
    const hold = runHoldOf(facts({ latestIntent: null }));
    expect(hold).toEqual({ reason: 'intent_required', gateId: null });
    const error = heldError(() => assertRunMayAct('run_1', hold, 'tool_request'));
    expect(error).toMatchObject({ code: 'RUN_HELD', details: { reason: 'intent_required', gateId: null } });
    expect(error.message).toContain('intent approval');
    expect(error.message).toContain('planning_complete');
  });

  it('lets a review run without a plan act', () => {
    expect(runHoldOf(facts({ autonomy: 'review', latestIntent: null }))).toBeNull();
  });

  it('puts a pause before anything else', () => {
    expect(runHoldOf(facts({ status: 'paused', latestIntent: null }))).toEqual({
      reason: 'paused',
      gateId: null,
    });
  });

  it('freezes a run with an approved plan at its pending phase review', () => {
    const hold = runHoldOf(facts({ pendingReview: { id: 'gate_review' } }));
    expect(hold).toEqual({ reason: 'phase_review', gateId: 'gate_review' });
    expect(holdBlocking(hold, 'read')).toBeNull();
    expect(holdBlocking(hold, 'plan')).toEqual(hold);
    expect(holdBlocking(hold, 'confidence_report')).toEqual(hold);
  });

  it.each(['rejected', 'steered', 'expired', 'cancelled'] as const)(
    'keeps holding implementation after the intent gate ended %s',
    (status) => {
      const hold = runHoldOf(facts({ latestIntent: { id: 'gate_intent', status } }));
      expect(hold).toEqual({ reason: 'intent_not_approved', gateId: 'gate_intent' });
      for (const act of ['tool_request', 'checkpoint', 'complete'] as const) {
        expect(holdBlocking(hold, act)).toEqual(hold);
      }
      expect(holdBlocking(hold, 'plan')).toBeNull();
    },
  );

  it('releases implementation once the intent gate is approved', () => {
    const hold = runHoldOf(facts());
    expect(hold).toBeNull();
    expect(() => assertRunMayAct('run_1', hold, 'checkpoint')).not.toThrow();
  });
});

describe('a run’s settled status', () => {
  it('completes a run only when its final review was approved', () => {
    const completing = GATE_STATUSES.filter(
      (finalReview) => settledRunStatus({ status: 'running', pendingGates: 0, finalReview }) === 'completed',
    );
    expect(completing).toEqual(['approved']);
  });

  it.each(['rejected', 'resolved'] as const)(
    'keeps a run running after its final review ended %s (rejected, or changes requested)',
    (finalReview) => {
      expect(settledRunStatus({ status: 'running', pendingGates: 0, finalReview })).toBe('running');
      expect(settledRunStatus({ status: 'waiting', pendingGates: 0, finalReview })).toBe('running');
    },
  );

  it('waits while a gate is pending, and keeps a stopped run stopped', () => {
    expect(settledRunStatus({ status: 'running', pendingGates: 1, finalReview: 'approved' })).toBe('waiting');
    expect(settledRunStatus({ status: 'stopped', pendingGates: 0, finalReview: 'approved' })).toBe('stopped');
  });
});
