import type { FileChange, Finding } from '../types.js';
import { detectAssertionsDeletedToPass } from './assertion-deleted.js';
import { patternDefinition } from './catalog.js';
import { crossFileHits, dedupe } from './cross-file.js';
import { detectSwallowedErrors } from './error-swallowed.js';
import { detectHardcodedResults } from './hardcoded-result.js';
import { detectByLines } from './line-rules.js';
import { detectMockedUnit } from './mock-unit-under-test.js';
import { detectPlaceholderBodies } from './placeholder-body.js';
import { detectSuppressions } from './suppression-added.js';
import { detectCommentedOutTests } from './test-commented-out.js';
import type { ChangedFile, DetectorInput, LanguageContext, LazinessHit } from './types.js';

export { LAZINESS_PATTERNS } from './catalog.js';
export type {
  ChangedFile,
  LanguageContext,
  LazinessPatternId,
  PatternDefinition,
  PatternExample,
} from './types.js';

const DETECTORS: readonly ((input: DetectorInput) => LazinessHit[])[] = [
  detectPlaceholderBodies,
  detectCommentedOutTests,
  detectSuppressions,
  detectSwallowedErrors,
  detectHardcodedResults,
  detectMockedUnit,
  detectAssertionsDeletedToPass,
  detectByLines,
];

function baseConfidence(file: FileChange): number {
  return file.partial ? 0.75 : 0.9;
}

function toFinding(file: FileChange, hit: LazinessHit): Finding {
  const confidence = Math.round(Math.min(1, Math.max(0, hit.confidence)) * 100) / 100;
  return {
    ...hit,
    kind: 'laziness',
    severity: hit.severity ?? patternDefinition(hit.pattern).severity,
    file: file.path,
    confidence,
  };
}

function byLine(a: Finding, b: Finding): number {
  return a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0);
}

/**
 * The laziness patterns a change adds to one file: what is in `after` and not in `before`.
 * @example const findings = await detectLaziness(file, { language, before: await parseSource(language, file.before), after });
 */
export async function detectLaziness(file: FileChange, context: LanguageContext): Promise<Finding[]> {
  if (file.after === null || file.after === file.before) return [];
  const input: DetectorInput = { file, context, baseConfidence: baseConfidence(file) };
  return DETECTORS.flatMap((detect) => detect(input))
    .map((hit) => toFinding(file, hit))
    .sort(byLine);
}

/**
 * The patterns that pair a test file with the production file it tests, over a whole change: a
 * literal returned where a related test expects it, and an assertion deleted while the code under
 * test changed. Complements `detectLaziness`, which sees one file at a time.
 */
export function detectCrossFileLaziness(files: readonly ChangedFile[]): Finding[] {
  const findings = crossFileHits(files).map(({ file, hit }) => toFinding(file.file, hit));
  return dedupe(findings).sort(byLine);
}
