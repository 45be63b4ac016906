import type { Tree } from 'web-tree-sitter';
import { compareChange, type ScannedFile, type SideScan } from './compare.js';
import { findExports, isPrivateModule } from './exports.js';
import { factsOf } from './facts.js';
import { languageOf, parseSource } from './languages.js';
import { type ChangedFile, detectCrossFileLaziness, detectLaziness } from './patterns/index.js';
import { isTestPath } from './patterns/test-files.js';
import { scanTests } from './tests.js';
import type {
  AnalysisResult,
  ChangeInput,
  CoverageSummary,
  FileChange,
  Finding,
  LanguageId,
} from './types.js';

/** Test helpers and fixtures live in test directories too, beside the test files. */
const TEST_DIRECTORY = /(^|\/)(tests?|specs?|__tests__|testing)\//;

/** Whole files parsed cleanly, whole files with syntax errors, a diff's hunks, line rules alone. */
const CONFIDENCE = { whole: 0.95, broken: 0.85, partial: 0.8, lines: 0.55 } as const;

function confidenceOf(language: LanguageId, file: FileChange, trees: (Tree | null)[]): number {
  if (language === 'other') return CONFIDENCE.lines;
  if (file.partial) return CONFIDENCE.partial;
  return trees.some((tree) => tree?.rootNode.hasError) ? CONFIDENCE.broken : CONFIDENCE.whole;
}

function scanSide(
  language: LanguageId,
  tree: Tree | null,
  side: { text: string | null; path: string },
): SideScan | null {
  const { text, path } = side;
  if (text === null) return null;
  return { tests: scanTests(language, tree, text), exports: findExports(language, tree, text, path) };
}

/** A test file renamed where its runner no longer collects it (`.test.ts` → `.test.txt`): its tests stop running. */
function isTestFileDisabled(file: FileChange): boolean {
  const old = file.oldPath;
  if (!old || old === file.path || file.after === null || !isTestPath(old) || isTestPath(file.path))
    return false;
  return !(languageOf(file.path) === languageOf(old) && TEST_DIRECTORY.test(file.path));
}

const NO_TESTS = { tests: [], orphanAssertions: [], skips: [] };

interface ParsedFile {
  file: FileChange;
  /** The language of each side: a rename may change it. */
  languages: { before: LanguageId; after: LanguageId };
  before: Tree | null;
  after: Tree | null;
}

function scanFile({ file, languages, before, after }: ParsedFile): ScannedFile {
  const disabled = isTestFileDisabled(file);
  const beforeScan = scanSide(languages.before, before, {
    text: file.before,
    path: file.oldPath ?? file.path,
  });
  const scannedAfter = scanSide(languages.after, after, { text: file.after, path: file.path });
  const afterScan = disabled && scannedAfter ? { ...scannedAfter, tests: NO_TESTS } : scannedAfter;
  // Unit tests beside the code they test do not make their file a test file.
  const hasTests = [beforeScan, afterScan].some((side) => side?.tests.tests.some((test) => !test.besideCode));
  return {
    path: file.path,
    oldPath: file.oldPath ?? null,
    before: beforeScan,
    after: afterScan,
    isTestFile:
      hasTests ||
      [file.path, file.oldPath ?? file.path].some((path) => isTestPath(path) || TEST_DIRECTORY.test(path)),
    isPrivateModule: isPrivateModule(languages.before, file.oldPath ?? file.path),
    testsDisabled: disabled,
    partial: file.partial === true,
    confidence: confidenceOf(languages.after, file, [before, after]),
  };
}

/** A coverage drop, as a finding; the rule's threshold (2 points) is the gate's, not the finding's. */
function coverageFinding(
  coverage: { before: CoverageSummary; after: CoverageSummary },
  delta: number | null,
): Finding[] {
  if (delta === null || delta >= 0) return [];
  const message = `Line coverage fell from ${coverage.before.linePercent}% to ${coverage.after.linePercent}% (${delta} points).`;
  const severity = delta < -2 ? 'high' : 'low';
  return [
    {
      kind: 'coverage_dropped',
      pattern: 'coverage.dropped',
      severity,
      confidence: 1,
      file: '',
      line: null,
      name: null,
      message,
    },
  ];
}

/**
 * Analyses a change: tests removed, added and replaced, assertions removed or weakened, skips added,
 * public API removed, the laziness patterns, and the coverage delta, with the facts the gates read.
 * Each side of each file is parsed once; trees are freed before returning.
 * @example const { findings, facts } = await analyzeChange({ files: diffToChanges(diff) });
 */
export async function analyzeChange(input: ChangeInput): Promise<AnalysisResult> {
  const started = performance.now();
  const languages: Partial<Record<LanguageId, number>> = {};
  const scanned: ScannedFile[] = [];
  const findings: Finding[] = [];
  const trees: Tree[] = [];
  const changed: ChangedFile[] = [];
  try {
    for (const file of input.files) {
      const language = languageOf(file.path);
      const oldLanguage = file.oldPath ? languageOf(file.oldPath) : language;
      languages[language] = (languages[language] ?? 0) + 1;
      const before = file.before === null ? null : await parseSource(oldLanguage, file.before);
      const after = file.after === null ? null : await parseSource(language, file.after);
      for (const tree of [before, after]) if (tree) trees.push(tree);
      scanned.push(scanFile({ file, languages: { before: oldLanguage, after: language }, before, after }));
      const context = { language, before, after };
      changed.push({ file, context });
      findings.push(...(await detectLaziness(file, context)));
    }
    findings.push(...detectCrossFileLaziness(changed));
  } finally {
    for (const tree of trees) tree.delete();
  }
  findings.unshift(...compareChange(scanned));
  const facts = factsOf(findings, input.coverage);
  if (input.coverage) findings.push(...coverageFinding(input.coverage, facts.coverageDelta));
  return { findings, facts, languages, durationMs: Math.round((performance.now() - started) * 10) / 10 };
}
