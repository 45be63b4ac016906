import { type DestructiveActionInput, TRIGGER_LIMITS } from '../gates/escalation.js';

/** The counts a change analysis reports, as seed 001's destructive-action rules read them. */
export interface ChangeCounts {
  testsRemoved: number;
  replacementTests: number;
  assertionsRemoved: number;
  assertionsWeakened: number;
  skipPatternsAdded: number;
  featuresRemoved: number;
  /** Percentage points, after − before; null without coverage reports. */
  coverageDelta: number | null;
}

/** A removed assertion is the strongest weakening of a test: both count toward the seed's limit of 2. */
function weakenedChecks(counts: ChangeCounts): number {
  return counts.assertionsWeakened + counts.assertionsRemoved;
}

/**
 * The destructive action a change amounts to, strictest first: a skip or a removed feature is never
 * judged as a test deletion, so only a pure test deletion may pass as a test refactoring.
 */
function actionTypeOf(counts: ChangeCounts): string | undefined {
  if (counts.skipPatternsAdded > 0) return 'test_skip';
  if (counts.featuresRemoved > 0) return 'feature_removal';
  if (counts.testsRemoved > 0) return 'test_deletion';
  if (weakenedChecks(counts) > TRIGGER_LIMITS.maxAssertionsWeakened) return 'assertion_weakening';
  if ((counts.coverageDelta ?? 0) < TRIGGER_LIMITS.minCoverageDelta) return 'coverage_regression';
  return undefined;
}

/**
 * Coverage is maintained when reports came with the change and it did not drop. Without reports only
 * the diff can show it: every test that left its place reappeared with all of its assertions.
 */
function coverageMaintained(counts: ChangeCounts): boolean {
  if (counts.coverageDelta !== null) return counts.coverageDelta >= 0;
  return counts.testsRemoved === counts.replacementTests;
}

/** A change's counts in the fields of the destructive-action rules. */
export function destructiveContextOfChange(counts: ChangeCounts): DestructiveActionInput {
  const actionType = actionTypeOf(counts);
  return {
    ...(actionType === undefined ? {} : { actionType }),
    testsRemoved: counts.testsRemoved,
    coverageDelta: counts.coverageDelta ?? 0,
    featuresRemoved: counts.featuresRemoved,
    assertionsWeakened: weakenedChecks(counts),
    skipPatternsAdded: counts.skipPatternsAdded,
    replacementTests: counts.replacementTests,
    coverageMaintained: coverageMaintained(counts),
  };
}
