import type { Node, Tree } from 'web-tree-sitter';
import { lineTestScan } from './fallback.js';
import type { Assertion, RawScan, TestCase, TestScan } from './test-scan.js';
import { goTests, javaTests, rustTests } from './tests-compiled.js';
import { jsTests } from './tests-js.js';
import { pythonTests } from './tests-python.js';
import type { LanguageId } from './types.js';

const SCANNERS: Record<Exclude<LanguageId, 'other'>, (root: Node) => RawScan> = {
  typescript: jsTests,
  tsx: jsTests,
  javascript: jsTests,
  python: pythonTests,
  go: goTests,
  java: javaTests,
  rust: rustTests,
};

/** Index of the innermost test holding `line`, tests sorted by first line; -1 for none. */
function holderOf(tests: readonly Omit<TestCase, 'assertions'>[], line: number): number {
  let low = 0;
  let high = tests.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((tests[middle] as TestCase).line <= line) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  for (let i = found; i >= 0; i--) if ((tests[i] as TestCase).endLine >= line) return i;
  return -1;
}

/** Tests and skips the parser missed in a broken fragment, found by the line rules. */
function addLineFindings(raw: RawScan, text: string, language: LanguageId): void {
  const lines = lineTestScan(text, language);
  const knownSkips = new Set(raw.skips.map((skip) => skip.line));
  raw.skips.push(...lines.skips.filter((skip) => !knownSkips.has(skip.line)));
  const known = new Set(raw.tests.map((test) => test.line));
  const extra = lines.tests.filter((test) => !known.has(test.line));
  if (extra.length === 0) return;
  raw.tests.push(...extra.map((test) => ({ ...test, byLine: true })));
  raw.tests.sort((a, b) => a.line - b.line);
  // A line-found test ends where the next test starts: its real end is outside the fragment.
  for (let i = 0; i < raw.tests.length; i++) {
    const test = raw.tests[i] as TestCase;
    if (test.byLine) test.endLine = (raw.tests[i + 1]?.line ?? Number.MAX_SAFE_INTEGER) - 1;
  }
}

/**
 * The tests, assertions and skips of one side of a file: from its tree for parsed languages (with
 * line rules for what a broken fragment hides), from line rules alone for the others.
 */
export function scanTests(language: LanguageId, tree: Tree | null, text: string): TestScan {
  if (language === 'other' || tree === null) return lineTestScan(text, language);
  const raw = SCANNERS[language](tree.rootNode);
  raw.tests.sort((a, b) => a.line - b.line);
  if (tree.rootNode.hasError) addLineFindings(raw, text, language);
  const tests: TestCase[] = raw.tests.map((test) => ({ ...test, assertions: [] }));
  const orphanAssertions: Assertion[] = [];
  for (const assertion of raw.assertions) {
    const holder = holderOf(tests, assertion.line);
    if (holder < 0) orphanAssertions.push(assertion);
    else tests[holder]?.assertions.push(assertion);
  }
  const skippedScopes = new Set(raw.skips.map((skip) => skip.scope));
  for (const test of tests) if (skippedScopes.has(test.key)) test.skipped = true;
  return { tests, orphanAssertions, skips: raw.skips };
}
