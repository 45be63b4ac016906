import type { ChangeFacts, CoverageSummary, Finding, FindingKind } from './types.js';

/**
 * The counts seed 001's destructive-action rules read. `testsRemoved` counts every test gone from
 * where it was, replaced or not; `replacementTests` those that reappear, so test refactoring
 * (all removed tests replaced, coverage kept) can be approved without a person.
 */
export function factsOf(
  findings: readonly Finding[],
  coverage?: { before: CoverageSummary; after: CoverageSummary },
): ChangeFacts {
  const count = (...kinds: FindingKind[]) => findings.filter((item) => kinds.includes(item.kind)).length;
  const delta = coverage
    ? Math.round((coverage.after.linePercent - coverage.before.linePercent) * 100) / 100
    : null;
  return {
    testsRemoved: count('test_removed', 'test_replaced'),
    testsAdded: count('test_added'),
    replacementTests: count('test_replaced'),
    assertionsRemoved: count('assertion_removed'),
    assertionsWeakened: count('assertion_weakened'),
    skipPatternsAdded: count('skip_added'),
    featuresRemoved: count('export_removed'),
    coverageDelta: delta,
    lazinessFindings: count('laziness'),
  };
}
