import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTONOMY_LEVELS } from '../schemas.js';
import {
  freezeContext,
  type PhaseBoundary,
  prBehaviour,
  resumeAfterFreeze,
  shouldFreeze,
} from './autonomy.js';

const level = fc.constantFrom(...AUTONOMY_LEVELS);
const boundary: fc.Arbitrary<PhaseBoundary> = fc.record({
  phaseType: fc.constantFrom('strategic' as const, 'tactical' as const),
  phaseNumber: fc.integer({ min: 1, max: 50 }),
  jobCompleteCalled: fc.boolean(),
});
const answer = fc.oneof(
  fc.constant({ approved: true as const }),
  fc
    .string({ minLength: 1 })
    .filter((s) => s.trim() !== '')
    .map((feedback) => ({ feedback })),
);

describe('autonomy properties', () => {
  it('always freezes at job_complete, except with full autonomy', () => {
    fc.assert(
      fc.property(level, boundary, (autonomy, b) => {
        expect(shouldFreeze({ autonomy, ...b, jobCompleteCalled: true })).toBe(autonomy !== 'full');
      }),
    );
  });

  it('never freezes a full-autonomy run and always freezes a dependent one', () => {
    fc.assert(
      fc.property(boundary, (b) => {
        expect(shouldFreeze({ autonomy: 'full', ...b })).toBe(false);
        expect(shouldFreeze({ autonomy: 'dependent', ...b })).toBe(true);
      }),
    );
  });

  it('freezes more often at each step down the autonomy ladder', () => {
    fc.assert(
      fc.property(boundary, (b) => {
        const freezes = AUTONOMY_LEVELS.map((autonomy) => shouldFreeze({ autonomy, ...b }));
        for (let i = 1; i < freezes.length; i++) {
          if (freezes[i - 1]) expect(freezes[i]).toBe(true);
        }
      }),
    );
  });

  it('asks for PR approval exactly where the run freezes', () => {
    fc.assert(
      fc.property(level, boundary, (autonomy, b) => {
        const pr = prBehaviour(autonomy, b.phaseType, b.phaseNumber, b.jobCompleteCalled);
        expect(pr === 'requires_approval').toBe(shouldFreeze({ autonomy, ...b }));
      }),
    );
  });

  it('resumes forward: feedback never skips a phase and approval never goes back', () => {
    fc.assert(
      fc.property(boundary, answer, (b, a) => {
        const plan = resumeAfterFreeze(b, a);
        expect(plan.context).toBe(freezeContext(b));
        expect(plan.withFeedback).toBe('feedback' in a);
        expect(plan.phaseNumber - b.phaseNumber).toBeGreaterThanOrEqual(0);
        expect(plan.phaseNumber - b.phaseNumber).toBeLessThanOrEqual(1);
        if (plan.next === 'completed') expect(b.jobCompleteCalled && !('feedback' in a)).toBe(true);
      }),
    );
  });
});
