/** Kinds of destructive action the destructive-action gate knows alternatives for. */
export type DestructiveActionKind =
  | 'test_deletion'
  | 'test_skip'
  | 'feature_removal'
  | 'assertion_weakening'
  | 'coverage_regression';

/** What to suggest instead when a destructive action is rejected. */
export const DESTRUCTIVE_ALTERNATIVES: readonly {
  kind: DestructiveActionKind;
  action: string;
  alternative: string;
}[] = [
  { kind: 'test_deletion', action: 'Test deletion', alternative: 'Fix failing tests instead of deleting' },
  { kind: 'test_skip', action: 'Test skip', alternative: 'Mock dependencies, fix timing issues' },
  {
    kind: 'feature_removal',
    action: 'Feature removal',
    alternative: 'Use feature flag, mark deprecated first',
  },
  {
    kind: 'assertion_weakening',
    action: 'Assertion weakening',
    alternative: 'Fix implementation to meet assertion',
  },
  {
    kind: 'coverage_regression',
    action: 'Coverage regression',
    alternative: 'Add tests to maintain coverage',
  },
];
