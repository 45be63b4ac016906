import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTONOMY_LEVELS, type AutonomyLevel, GATE_STATUSES } from '../schemas.js';
import {
  intentHoldBlocks,
  intentHoldOf,
  isImplementation,
  planVerdict,
  type RunAct,
  releasesIntentHold,
  requestActOf,
  requiresIntentApproval,
} from './intent-gate.js';
import type { Verdict } from './request-verdict.js';

const ACTS: RunAct[] = [
  'read',
  'tool_request',
  'plan',
  'question',
  'confidence_report',
  'checkpoint',
  'complete',
];

// The autonomy seed's "stops after initial strategic" column: where Gate 0 holds implementation.
const GATE_ZERO: [AutonomyLevel, boolean][] = [
  ['full', false],
  ['review', false],
  ['partial', true],
  ['guided', true],
  ['dependent', true],
];

describe('Gate 0 by autonomy level', () => {
  it.each(GATE_ZERO)('at %s, intent approval is required before implementation: %s', (level, required) => {
    expect(requiresIntentApproval(level)).toBe(required);
    const hold = intentHoldOf({ autonomy: level, latestIntent: null });
    expect(hold).toEqual(required ? { reason: 'intent_required', gateId: null } : null);
  });

  it('covers every autonomy level', () => {
    expect(GATE_ZERO.map(([level]) => level).sort()).toEqual([...AUTONOMY_LEVELS].sort());
  });
});

describe('what counts as implementation', () => {
  it.each([
    ['tool_request', true],
    ['checkpoint', true],
    ['complete', true],
    ['read', false],
    ['plan', false],
    ['question', false],
    ['confidence_report', false],
  ] as [RunAct, boolean][])('%s is implementation: %s', (act, implementation) => {
    expect(isImplementation(act)).toBe(implementation);
  });

  it('holds implementation before the first plan, and lets reads, the plan, questions and reports through', () => {
    const passes = ACTS.filter((act) => !intentHoldBlocks('intent_required', act));
    expect(passes.sort()).toEqual(['confidence_report', 'plan', 'question', 'read']);
  });

  it.each([
    ['a read-only tool', { tool: 'read_file' }, 'read'],
    ['a read-only tool sent with the plan event', { tool: 'Grep', event: 'planning_complete' }, 'read'],
    ['the plan', { event: 'planning_complete' }, 'plan'],
    ['a question', { event: 'question' }, 'question'],
    ['a question by gate type', { gateType: 'question' }, 'question'],
    ['a write', { tool: 'write_file' }, 'tool_request'],
    ['a shell command', { tool: 'Bash' }, 'tool_request'],
    ['an operation', {}, 'tool_request'],
    ['a trigger-rule event', { event: 'recovery' }, 'tool_request'],
  ] as const)('reads %s as %s', (_what, request, act) => {
    expect(requestActOf(request)).toBe(act);
  });

  it('holds everything but reads while the plan waits for a person', () => {
    expect(ACTS.filter((act) => !intentHoldBlocks('intent_pending', act))).toEqual(['read']);
  });

  it('lets only reads and a new plan through after a plan was not approved', () => {
    expect(ACTS.filter((act) => !intentHoldBlocks('intent_not_approved', act)).sort()).toEqual([
      'plan',
      'read',
    ]);
  });
});

describe('which intent gate releases the hold', () => {
  it('releases on approved only', () => {
    expect(GATE_STATUSES.filter(releasesIntentHold)).toEqual(['approved']);
  });

  it.each(['rejected', 'steered', 'expired', 'cancelled', 'resolved'] as const)(
    'keeps a run back in planning when its intent gate ended %s, at every level',
    (status) => {
      for (const autonomy of AUTONOMY_LEVELS) {
        const hold = intentHoldOf({ autonomy, latestIntent: { id: 'gate_1', status } });
        expect(hold).toEqual({ reason: 'intent_not_approved', gateId: 'gate_1' });
      }
    },
  );

  it('holds a run while its intent gate is pending, at every level', () => {
    for (const autonomy of AUTONOMY_LEVELS) {
      const hold = intentHoldOf({ autonomy, latestIntent: { id: 'gate_1', status: 'pending' } });
      expect(hold).toEqual({ reason: 'intent_pending', gateId: 'gate_1' });
    }
  });

  it('lets a run with an approved intent implement, at every level', () => {
    for (const autonomy of AUTONOMY_LEVELS) {
      expect(intentHoldOf({ autonomy, latestIntent: { id: 'gate_1', status: 'approved' } })).toBeNull();
    }
  });

  it('never lets implementation through unless the newest intent gate was approved or Gate 0 does not apply', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...AUTONOMY_LEVELS),
        fc.option(fc.constantFrom(...GATE_STATUSES), { nil: null }),
        fc.constantFrom<RunAct>('tool_request', 'checkpoint', 'complete'),
        (autonomy, status, act) => {
          const hold = intentHoldOf({
            autonomy,
            latestIntent: status === null ? null : { id: 'gate_1', status },
          });
          const free = hold === null || !intentHoldBlocks(hold.reason, act);
          const released = status === null ? !requiresIntentApproval(autonomy) : status === 'approved';
          expect(free).toBe(released);
        },
      ),
    );
  });
});

describe('the verdict on a plan', () => {
  const allowed: Verdict = { outcome: 'allowed', ruleId: 'all', reason: 'allowed', via: 'policy' };
  const denied: Verdict = { outcome: 'denied', ruleId: 'no-plans', reason: 'no', via: 'policy' };
  const gated: Verdict = {
    outcome: 'gated',
    ruleId: 'everything',
    reason: 'a person looks',
    via: 'policy',
    gate: { type: 'operation', risk: 'high' },
  };

  it.each(['partial', 'guided', 'dependent'] as const)(
    'always opens a mandatory intent gate at %s, even when the policy allows the plan',
    (autonomy) => {
      const verdict = planVerdict({ autonomy, event: 'planning_complete', verdict: allowed });
      expect(verdict).toMatchObject({
        outcome: 'gated',
        gate: { type: 'intent_approval', threshold: 'mandatory' },
      });
      expect(verdict.reason).toContain(autonomy);
    },
  );

  it('turns a gate of another type into the intent gate, keeping its settings', () => {
    const verdict = planVerdict({ autonomy: 'partial', event: 'planning_complete', verdict: gated });
    expect(verdict).toMatchObject({
      outcome: 'gated',
      ruleId: 'everything',
      gate: { type: 'intent_approval', threshold: 'mandatory', risk: 'high' },
    });
  });

  it('keeps a deny: the policy may forbid the plan', () => {
    expect(planVerdict({ autonomy: 'partial', event: 'planning_complete', verdict: denied })).toBe(denied);
  });

  it.each(['full', 'review'] as const)('leaves the policy’s verdict alone at %s', (autonomy) => {
    expect(planVerdict({ autonomy, event: 'planning_complete', verdict: allowed })).toBe(allowed);
  });

  it('leaves other requests and requests of no run alone', () => {
    expect(planVerdict({ autonomy: 'partial', event: 'tool_call', verdict: allowed })).toBe(allowed);
    expect(planVerdict({ autonomy: 'partial', event: undefined, verdict: allowed })).toBe(allowed);
    expect(planVerdict({ autonomy: null, event: 'planning_complete', verdict: allowed })).toBe(allowed);
  });
});
