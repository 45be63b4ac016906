import { LAZINESS_PATTERNS } from './patterns/index.js';

/** The change comparison's pattern ids: tests, assertions, skips, exports and coverage. */
const CHANGE_PATTERNS = [
  'test.added',
  'test.removed',
  'test.replaced',
  'test.skip_added',
  'assertion.removed',
  'assertion.weakened',
  'export.removed',
  'export.class_removed',
  'coverage.dropped',
] as const;

/** Every pattern id a finding can carry, laziness catalog first. */
export const PATTERN_IDS: readonly string[] = [
  ...LAZINESS_PATTERNS.map((pattern) => pattern.id),
  ...CHANGE_PATTERNS,
];

const KNOWN = new Set(PATTERN_IDS);

/** True when `id` names a pattern the analysis reports. */
export function isPatternId(id: string): boolean {
  return KNOWN.has(id);
}
