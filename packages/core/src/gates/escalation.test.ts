import { describe, expect, it } from 'vitest';
import { DESTRUCTIVE_ALTERNATIVES } from '../destructive/destructive-alternatives.js';
import { GatehouseError } from '../errors.js';
import {
  AUTO_APPROVE_CONDITIONS,
  evaluateTrigger,
  shouldTriggerGate,
  TRIGGER_GATE_TYPES,
  TRIGGER_LIMITS,
} from './escalation.js';

function validationError(run: () => unknown): GatehouseError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe('VALIDATION_FAILED');
    return error as GatehouseError;
  }
  throw new Error('expected a VALIDATION_FAILED error');
}

describe('recovery escalation trigger rules', () => {
  it.each([
    ['recovery_attempts 3', { recovery_attempts: 3 }, true, ['max_recovery_attempts']],
    ['recovery_attempts 4', { recovery_attempts: 4 }, true, ['max_recovery_attempts']],
    ['recovery_attempts 2', { recovery_attempts: 2 }, false, []],
    ['confidence 0.49', { confidence: 0.49 }, true, ['low_confidence']],
    ['confidence 0.5', { confidence: 0.5 }, false, []],
    ['severity CRITICAL', { severity: 'CRITICAL' }, true, ['critical_severity']],
    ['severity critical in lower case', { severity: 'critical' }, true, ['critical_severity']],
    ['severity HIGH', { severity: 'HIGH' }, false, []],
    ['infinite_loop_detected', { infinite_loop_detected: true }, true, ['infinite_loop']],
    ['non_deterministic_failure', { non_deterministic_failure: true }, true, ['non_deterministic_failure']],
    ['an empty context (seed defaults)', {}, false, []],
  ])('%s → trigger %s', (_name, context, trigger, rules) => {
    const result = evaluateTrigger('recovery_escalation', context);
    expect(result).toMatchObject({ trigger, rules });
    expect(result.reasons).toHaveLength(rules.length);
    expect(shouldTriggerGate('recovery_escalation', context)).toBe(trigger);
  });

  it('lists every rule that fired, in rule order, for the audit trail', () => {
    const result = evaluateTrigger('recovery_escalation', {
      recovery_attempts: 3,
      confidence: 0.45,
      severity: 'HIGH',
    });
    expect(result.rules).toEqual(['max_recovery_attempts', 'low_confidence']);
    expect(result.reasons).toEqual([
      'recovery_attempts 3 reached the maximum of 3',
      'confidence 0.45 is below 0.5: the diagnosis is uncertain',
    ]);
  });

  it('passes through context keys that are not trigger fields', () => {
    const context = {
      task_description: 'Implement JWT authentication',
      pattern_type: 'hardcoded_test_bypass',
    };
    expect(shouldTriggerGate('recovery_escalation', context)).toBe(false);
  });
});

describe('destructive action trigger rules', () => {
  it.each([
    ['tests_removed 1', { tests_removed: 1 }, true, ['test_deletion']],
    ['coverage_delta -2.5', { coverage_delta: -2.5 }, true, ['coverage_regression']],
    ['coverage_delta -2.0', { coverage_delta: -2.0 }, false, []],
    ['coverage_delta +3', { coverage_delta: 3 }, false, []],
    ['features_removed 1', { features_removed: 1 }, true, ['feature_removal']],
    ['assertions_weakened 3', { assertions_weakened: 3 }, true, ['assertion_weakening']],
    ['assertions_weakened 2', { assertions_weakened: 2 }, false, []],
    ['skip_patterns_added 1', { skip_patterns_added: 1 }, true, ['test_skip']],
    ['nothing destructive', {}, false, []],
  ])('%s → trigger %s', (_name, context, trigger, rules) => {
    expect(evaluateTrigger('destructive_action', context)).toMatchObject({ trigger, rules });
    expect(shouldTriggerGate('destructive_action', context)).toBe(trigger);
  });

  it('names destructive rules by the kinds that have suggested alternatives', () => {
    const result = evaluateTrigger('destructive_action', {
      tests_removed: 1,
      coverage_delta: -5,
      features_removed: 1,
      assertions_weakened: 3,
      skip_patterns_added: 1,
    });
    const kinds = DESTRUCTIVE_ALTERNATIVES.map((alternative) => alternative.kind);
    expect(result.rules).toHaveLength(5);
    for (const rule of result.rules) expect(kinds).toContain(rule);
  });
});

describe('destructive action auto-approve conditions', () => {
  it.each([
    [
      'test refactoring with as many replacement tests and coverage kept',
      { action_type: 'test_deletion', tests_removed: 3, replacement_tests: 3, coverage_maintained: true },
      'legitimate_test_refactoring',
    ],
    [
      'test refactoring with more replacement tests',
      { action_type: 'test_deletion', tests_removed: 2, replacement_tests: 5, coverage_maintained: true },
      'legitimate_test_refactoring',
    ],
    [
      'documented, PM-approved feature removal',
      {
        action_type: 'feature_removal',
        features_removed: 1,
        documented_in_requirements: true,
        approved_by_pm: true,
      },
      'intentional_scope_reduction',
    ],
  ])('auto-approves %s', (_name, context, condition) => {
    const result = evaluateTrigger('destructive_action', context);
    expect(result.trigger).toBe(false);
    expect(result.autoApproved).toBe(condition);
    expect(result.reasons.length).toBeGreaterThan(0);
  });

  it.each([
    [
      'fewer replacement tests',
      { action_type: 'test_deletion', tests_removed: 3, replacement_tests: 2, coverage_maintained: true },
    ],
    ['coverage not maintained', { action_type: 'test_deletion', tests_removed: 3, replacement_tests: 3 }],
    [
      'replacement tests under another action type',
      { action_type: 'refactor', tests_removed: 3, replacement_tests: 3, coverage_maintained: true },
    ],
    [
      'feature removal not in the requirements',
      { action_type: 'feature_removal', features_removed: 1, approved_by_pm: true },
    ],
    [
      'feature removal without PM approval',
      { action_type: 'feature_removal', features_removed: 1, documented_in_requirements: true },
    ],
  ])('gates %s', (_name, context) => {
    const result = evaluateTrigger('destructive_action', context);
    expect(result.trigger).toBe(true);
    expect(result.autoApproved).toBeUndefined();
  });

  it('checks the auto-approve conditions before the rules, as the seed does', () => {
    const result = evaluateTrigger('destructive_action', {
      action_type: 'test_deletion',
      tests_removed: 2,
      replacement_tests: 2,
      coverage_maintained: true,
      coverage_delta: -4,
    });
    expect(result).toMatchObject({
      trigger: false,
      autoApproved: 'legitimate_test_refactoring',
      rules: ['test_deletion', 'coverage_regression'],
    });
  });

  it('documents both conditions', () => {
    expect(AUTO_APPROVE_CONDITIONS.map((c) => [c.id, c.actionType])).toEqual([
      ['legitimate_test_refactoring', 'test_deletion'],
      ['intentional_scope_reduction', 'feature_removal'],
    ]);
  });
});

describe('false positive override trigger rules', () => {
  it.each([
    ['false_positive_reported', { false_positive_reported: true }, true, ['false_positive_reported']],
    ['detection_confidence 0.69', { detection_confidence: 0.69 }, true, ['low_detection_confidence']],
    ['detection_confidence 0.7', { detection_confidence: 0.7 }, false, []],
    ['no detection confidence given', {}, false, []],
    [
      'both',
      { false_positive_reported: true, detection_confidence: 0.2 },
      true,
      ['false_positive_reported', 'low_detection_confidence'],
    ],
  ])('%s → trigger %s', (_name, context, trigger, rules) => {
    expect(evaluateTrigger('false_positive_override', context)).toMatchObject({ trigger, rules });
    expect(shouldTriggerGate('false_positive_override', context)).toBe(trigger);
  });
});

describe('trigger context keys', () => {
  it.each([
    ['recovery_escalation', { recoveryAttempts: 3 }, { recovery_attempts: 3 }],
    ['recovery_escalation', { infiniteLoopDetected: true }, { infinite_loop_detected: true }],
    ['destructive_action', { testsRemoved: 2 }, { tests_removed: 2 }],
    ['destructive_action', { coverageDelta: -3 }, { coverage_delta: -3 }],
    ['false_positive_override', { falsePositiveReported: true }, { false_positive_reported: true }],
    ['false_positive_override', { detectionConfidence: 0.5 }, { detection_confidence: 0.5 }],
  ] as const)('%s reads %j the same as %j', (gateType, camel, snake) => {
    expect(evaluateTrigger(gateType, camel)).toEqual(evaluateTrigger(gateType, snake));
  });

  it('accepts camelCase auto-approve fields', () => {
    const context = {
      actionType: 'feature_removal',
      featuresRemoved: 1,
      documentedInRequirements: true,
      approvedByPm: true,
    };
    expect(evaluateTrigger('destructive_action', context).autoApproved).toBe('intentional_scope_reduction');
  });

  it('reads deleted_tests as tests_removed', () => {
    expect(evaluateTrigger('destructive_action', { deleted_tests: 2 }).rules).toEqual(['test_deletion']);
  });

  it('treats null as not given', () => {
    expect(shouldTriggerGate('recovery_escalation', { recovery_attempts: null, confidence: null })).toBe(
      false,
    );
  });

  it('accepts the same value under both spellings', () => {
    expect(shouldTriggerGate('destructive_action', { tests_removed: 1, testsRemoved: 1 })).toBe(true);
  });

  it('refuses two spellings of one field with different values', () => {
    const error = validationError(() =>
      evaluateTrigger('destructive_action', { testsRemoved: 0, tests_removed: 4 }),
    );
    expect(error.details.field).toBe('tests_removed');
    expect(error.message).toContain('conflicts with testsRemoved');
  });

  it.each([
    ['recovery_escalation', { recovery_attempts: 'three' }, 'recovery_attempts'],
    ['recovery_escalation', { recoveryAttempts: -1 }, 'recoveryAttempts'],
    ['recovery_escalation', { confidence: 45 }, 'confidence'],
    ['destructive_action', { coverage_delta: '-3' }, 'coverage_delta'],
    ['destructive_action', { coverage_maintained: 'yes' }, 'coverage_maintained'],
    ['false_positive_override', { detection_confidence: 1.5 }, 'detection_confidence'],
  ])('%s refuses %j naming the key as sent', (gateType, context, field) => {
    const error = validationError(() => evaluateTrigger(gateType, context));
    expect(error.details.field).toBe(field);
  });

  it.each([[null], [[1, 2]], ['recovery_attempts=3']])(
    'refuses a context that is not an object (%j)',
    (context) => {
      const error = validationError(() => evaluateTrigger('recovery_escalation', context as never));
      expect(error.details.field).toBe('context');
    },
  );

  it('checks field types at compile time for known gate types', () => {
    // @ts-expect-error recovery_attempts is a number
    expect(() => evaluateTrigger('recovery_escalation', { recovery_attempts: 'three' })).toThrow(
      GatehouseError,
    );
  });
});

describe('unknown gate types', () => {
  it.each(['tool_call', 'phase_review', 'no_such_gate'])('never triggers %s', (gateType) => {
    expect(shouldTriggerGate(gateType, { recovery_attempts: 10, tests_removed: 5 })).toBe(false);
    expect(evaluateTrigger(gateType, {})).toEqual({ trigger: false, rules: [], reasons: [] });
  });

  it('knows the three trigger gate types and their limits', () => {
    expect(TRIGGER_GATE_TYPES).toEqual([
      'recovery_escalation',
      'destructive_action',
      'false_positive_override',
    ]);
    expect(TRIGGER_LIMITS).toEqual({
      maxRecoveryAttempts: 3,
      minRecoveryConfidence: 0.5,
      minCoverageDelta: -2,
      maxAssertionsWeakened: 2,
      minDetectionConfidence: 0.7,
    });
  });
});
