import { addedOccurrences } from './added.js';
import { isTrivialValue, normalize } from './syntax.js';
import { expectedValues, type LiteralReturn, literalReturns } from './test-code.js';
import { isTestPath } from './test-files.js';
import { functionsByName, indexOf } from './tree-index.js';
import type { ChangedFile, DetectorInput, LazinessHit } from './types.js';

/** Production code asking whether it runs under a test runner. */
export const TEST_ONLY_CONDITION =
  /process\.env\.(NODE_ENV\s*[!=]==?\s*['"]test['"]|VITEST\b|JEST_WORKER_ID\b)|['"]test['"]\s*[!=]==?\s*process\.env\.NODE_ENV|import\.meta\.env\.(MODE\s*[!=]==?\s*['"]test['"]|VITEST\b)|['"](pytest|unittest)['"]\s+in\s+sys\.modules|PYTEST_CURRENT_TEST|testing\.Testing\(\)|cfg!\(\s*test\s*\)|flag\.Lookup\(\s*"test\.v"\s*\)/;

const COMMENT_LINE = /^\s*(\/\/|#|\/\*|\*|--)/;

function linesOf(text: string | null): { row: number; text: string }[] {
  return (text ?? '').split('\n').map((line, row) => ({ row, text: normalize(line) }));
}

/** Branches on being under test, added to production code. */
function testOnlyConditions({ file, context, baseConfidence }: DetectorInput): LazinessHit[] {
  if (isTestPath(file.path)) return [];
  const added = addedOccurrences(linesOf(file.before), linesOf(file.after), [(line) => line.text]);
  const confidence = context.after ? baseConfidence : Math.min(0.6, baseConfidence);
  return added
    .filter((line) => !COMMENT_LINE.test(line.text) && TEST_ONLY_CONDITION.test(line.text))
    .map((line) => ({
      pattern: 'lazy.hardcoded_result',
      confidence,
      line: line.row + 1,
      name: null,
      message: `production code now checks whether it runs under a test (\`${TEST_ONLY_CONDITION.exec(line.text)?.[0]}\`)`,
    }));
}

/**
 * Literal returns a change adds to production code in `production` whose value a test expects.
 * A function that existed and now returns the literal is the strong case; a new one is weaker.
 */
export function hardcodedReturns(
  production: ChangedFile,
  expected: ReadonlySet<string>,
  baseConfidence: number,
  testFile: string | null,
): LazinessHit[] {
  if (expected.size === 0) return [];
  const key = (r: LiteralReturn): string => `${r.scope}|${r.value}`;
  const added = addedOccurrences(literalReturns(production, 'before'), literalReturns(production, 'after'), [
    key,
  ]);
  const existed = functionsByName(indexOf(production.context.before));
  return added
    .filter((r) => expected.has(r.value) && !isTrivialValue(r.value))
    .map((r) => ({
      pattern: 'lazy.hardcoded_result' as const,
      confidence: existed.has(r.scope) ? baseConfidence : Math.min(0.6, baseConfidence),
      line: r.line,
      name: r.scope,
      message: `${r.scope} now returns ${r.text.replace(/^return\s*/, '').slice(0, 60)}, the value ${testFile ? `a test in ${testFile}` : 'a test in this file'} expects`,
    }));
}

/** Hard-coded results in one file: test-only branches, and literals its own tests expect. */
export function detectHardcodedResults(input: DetectorInput): LazinessHit[] {
  const { file, context, baseConfidence } = input;
  const expected = expectedValues(context.after, file.path, file.after);
  return [
    ...testOnlyConditions(input),
    ...hardcodedReturns({ file, context }, expected, baseConfidence, null),
  ];
}
