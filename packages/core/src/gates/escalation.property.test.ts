import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateTrigger } from './escalation.js';

const toCamel = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const camelize = (context: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(context).map(([key, value]) => [toCamel(key), value]));

const count = fc.integer({ min: 0, max: 6 });
const unit = fc.double({ min: 0, max: 1, noNaN: true });
const recovery = fc.record(
  {
    recovery_attempts: count,
    confidence: unit,
    severity: fc.constantFrom('LOW', 'HIGH', 'CRITICAL'),
    infinite_loop_detected: fc.boolean(),
    non_deterministic_failure: fc.boolean(),
  },
  { requiredKeys: [] },
);
const destructive = fc.record(
  {
    action_type: fc.constantFrom('test_deletion', 'feature_removal', 'refactor'),
    tests_removed: count,
    coverage_delta: fc.double({ min: -10, max: 10, noNaN: true }),
    features_removed: count,
    assertions_weakened: count,
    skip_patterns_added: count,
    replacement_tests: count,
    coverage_maintained: fc.boolean(),
    documented_in_requirements: fc.boolean(),
    approved_by_pm: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('escalation properties', () => {
  it('reads camelCase and snake_case contexts the same way', () => {
    fc.assert(
      fc.property(recovery, (context) => {
        expect(evaluateTrigger('recovery_escalation', camelize(context))).toEqual(
          evaluateTrigger('recovery_escalation', context),
        );
      }),
    );
    fc.assert(
      fc.property(destructive, (context) => {
        expect(evaluateTrigger('destructive_action', camelize(context))).toEqual(
          evaluateTrigger('destructive_action', context),
        );
      }),
    );
  });

  it('never escalates fewer recoveries when attempts go up', () => {
    fc.assert(
      fc.property(recovery, count, (context, more) => {
        const before = evaluateTrigger('recovery_escalation', context).trigger;
        const after = evaluateTrigger('recovery_escalation', {
          ...context,
          recovery_attempts: (context.recovery_attempts ?? 0) + more,
        }).trigger;
        if (before) expect(after).toBe(true);
      }),
    );
  });

  it('triggers a destructive-action gate exactly when a rule fires and no auto-approval holds', () => {
    fc.assert(
      fc.property(destructive, (context) => {
        const result = evaluateTrigger('destructive_action', context);
        expect(result.trigger).toBe(result.rules.length > 0 && result.autoApproved === undefined);
        expect(result.reasons).toHaveLength(result.rules.length);
      }),
    );
  });
});
