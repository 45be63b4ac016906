import type { FileChange, Finding } from '../types.js';
import { patternDefinition } from './catalog.js';
import { detectPlaceholderBodies } from './placeholder-body.js';
import { detectSuppressions } from './suppression-added.js';
import type { DetectorInput, LanguageContext, LazinessHit } from './types.js';

export { LAZINESS_PATTERNS } from './catalog.js';
export type {
  ChangedFile,
  LanguageContext,
  LazinessPatternId,
  PatternDefinition,
  PatternExample,
} from './types.js';

const TREE_DETECTORS: readonly ((input: DetectorInput) => LazinessHit[])[] = [
  detectPlaceholderBodies,
  detectSuppressions,
];

/** Fills in what the catalog knows about a hit. */
export function toFinding(file: FileChange, hit: LazinessHit): Finding {
  const confidence = Math.round(Math.min(1, Math.max(0, hit.confidence)) * 100) / 100;
  return {
    ...hit,
    kind: 'laziness',
    severity: patternDefinition(hit.pattern).severity,
    file: file.path,
    confidence,
  };
}

/**
 * The laziness patterns a change adds to one file: what is in `after` and not in `before`.
 * @example const findings = await detectLaziness(file, { language, before: await parseSource(language, file.before), after });
 */
export async function detectLaziness(file: FileChange, context: LanguageContext): Promise<Finding[]> {
  if (file.after === null) return [];
  const input: DetectorInput = { file, context, baseConfidence: file.partial ? 0.75 : 0.9 };
  const hits = TREE_DETECTORS.flatMap((detect) => detect(input));
  return hits.map((hit) => toFinding(file, hit)).sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
