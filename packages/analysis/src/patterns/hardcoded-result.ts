import type { Node, Tree } from 'web-tree-sitter';
import { addedOccurrences } from './added.js';
import { isTrivialValue, literalValue, normalize, normalizeLine } from './syntax.js';
import { expectedValues, type LiteralReturn, literalReturns, RETURN_LITERAL } from './test-code.js';
import { isTestPath } from './test-files.js';
import { type Container, functionsByName, indexOf } from './tree-index.js';
import type { ChangedFile, DetectorInput, LazinessHit } from './types.js';

/** Production code asking whether it runs under a test runner. */
export const TEST_ONLY_CONDITION =
  /process\.env\.(NODE_ENV\s*[!=]==?\s*['"]test['"]|VITEST\b|JEST_WORKER_ID\b)|['"]test['"]\s*[!=]==?\s*process\.env\.NODE_ENV|import\.meta\.env\.(MODE\s*[!=]==?\s*['"]test['"]|VITEST\b)|['"](pytest|unittest)['"]\s+in\s+sys\.modules|PYTEST_CURRENT_TEST|testing\.Testing\(\)|cfg!\(\s*test\s*\)|flag\.Lookup\(\s*"test\.v"\s*\)/;

const COMMENT_LINE = /^\s*(\/\/|#|\/\*|\*|--)/;

function linesOf(text: string | null): { row: number; text: string }[] {
  return (text ?? '').split('\n').map((line, row) => ({ row, text: normalizeLine(line) }));
}

/** Whether text at a place is code, rather than inside a longer string, regex or comment that mentions it. */
function isCode(tree: Tree | null, start: number, length: number): boolean {
  let node: Node | null = tree?.rootNode.descendantForIndex(start, start + length - 1) ?? null;
  for (let depth = 0; node && depth < 3; depth++, node = node.parent) {
    if (/string|regex|comment|template/.test(node.type) && node.text.length > length + 4) return false;
  }
  return true;
}

/** Branches on being under test, added to production code. */
function testOnlyConditions({ file, context, baseConfidence }: DetectorInput): LazinessHit[] {
  if (isTestPath(file.path) || file.after === null || !TEST_ONLY_CONDITION.test(file.after)) return [];
  const added = addedOccurrences(linesOf(file.before), linesOf(file.after), [(line) => line.text]);
  const candidates = added.filter(
    (line) => !COMMENT_LINE.test(line.text) && TEST_ONLY_CONDITION.test(line.text),
  );
  if (candidates.length === 0) return [];
  const raw = file.after.split('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of raw) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const confidence = context.after ? baseConfidence : Math.min(0.6, baseConfidence);
  return candidates.flatMap((line) => {
    const match = TEST_ONLY_CONDITION.exec(raw[line.row] ?? '');
    if (!match || !isCode(context.after, (starts[line.row] ?? 0) + match.index, match[0].length)) return [];
    return [
      {
        pattern: 'lazy.hardcoded_result' as const,
        confidence,
        line: line.row + 1,
        name: null,
        message: `production code now checks whether it runs under a test (\`${match[0]}\`)`,
      },
    ];
  });
}

/** A literal return the change adds, and how much it looks like a hard-coded result. */
export interface AddedReturn extends LiteralReturn {
  /** `replaced`: the function's whole body became the literal; `branch`: a return among other code; `new`: a new function. */
  kind: 'replaced' | 'branch' | 'new';
}

function isWholeBody(fn: Container): boolean {
  const text = normalize(fn.body?.text ?? '')
    .replace(/^\{\s*/, '')
    .replace(/\s*\}$/, '');
  return RETURN_LITERAL.test(text) || literalValue(text) !== null;
}

/** The literal returns a change adds to a production file's functions. */
export function addedLiteralReturns(production: ChangedFile): AddedReturn[] {
  const key = (r: LiteralReturn): string => `${r.scope}|${r.value}`;
  const added = addedOccurrences(literalReturns(production, 'before'), literalReturns(production, 'after'), [
    key,
  ]);
  if (added.length === 0) return [];
  const before = functionsByName(indexOf(production.context.before));
  const after = functionsByName(indexOf(production.context.after));
  return added.map((r) => {
    const fn = after.get(r.scope);
    const kind = !before.has(r.scope) ? 'new' : fn && isWholeBody(fn) ? 'replaced' : 'branch';
    return { ...r, kind };
  });
}

/**
 * Added literal returns whose value a test expects. A function whose body became the literal is the
 * strong case; a new function or one more return among others is often a constant or a mapping, so
 * a person checks it (confidence at most 0.6).
 */
export function hardcodedReturns(
  added: readonly AddedReturn[],
  expected: ReadonlySet<string>,
  baseConfidence: number,
  testFile: string | null,
): LazinessHit[] {
  return added
    .filter((r) => expected.has(r.value) && !isTrivialValue(r.value))
    .map((r) => ({
      pattern: 'lazy.hardcoded_result' as const,
      confidence: r.kind === 'replaced' ? baseConfidence : Math.min(0.6, baseConfidence),
      line: r.line,
      name: r.scope,
      message: `${r.scope} now returns ${r.text
        .replace(/^return\s*/, '')
        .replace(/;$/, '')
        .slice(0, 60)}, the value ${testFile ? `a test in ${testFile}` : 'a test in this file'} expects`,
    }));
}

/** Hard-coded results in one file: test-only branches, and literals its own tests expect. */
export function detectHardcodedResults(input: DetectorInput): LazinessHit[] {
  const { file, context, baseConfidence } = input;
  const expected = expectedValues(context.after, file.path, file.after);
  return [
    ...testOnlyConditions(input),
    ...(expected.size > 0
      ? hardcodedReturns(addedLiteralReturns({ file, context }), expected, baseConfidence, null)
      : []),
  ];
}
