import type { Tree } from 'web-tree-sitter';
import { assertionStatements, literalConstants, valuesOfAssertion } from './expected-values.js';
import { LITERAL, literalValue, literalValuesIn, normalize } from './syntax.js';
import { TEST_CODE } from './test-commented-out.js';
import { isTestPath } from './test-files.js';
import { indexOf, statementsOf } from './tree-index.js';
import type { ChangedFile } from './types.js';

const EXPECTATION_LINE = /\b(want|wanted|expected|expect|expects)\b/i;

/**
 * The literal values that test code in a file asserts or expects, e.g. `n:42`, `s:ok`: on its
 * assertion and expectation lines, in a whole assertion spread over lines, and through the constants
 * an assertion names (the file's own, and `imported`: those of helper modules it imports).
 */
export function expectedValues(
  tree: Tree | null,
  path: string,
  text: string | null,
  imported: ReadonlyMap<string, string> = new Map(),
): Set<string> {
  const values = new Set<string>();
  const index = indexOf(tree);
  if (!index || text === null) return values;
  const whole = isTestPath(path);
  const lines = text.split('\n');
  const rows = whole ? [{ startRow: 0, endRow: lines.length - 1 }] : index.testRanges;
  for (const { startRow, endRow } of rows) {
    for (let row = startRow; row <= endRow; row++) {
      const line = lines[row] ?? '';
      if (TEST_CODE.test(line) || EXPECTATION_LINE.test(line))
        for (const value of literalValuesIn(line)) values.add(value);
    }
  }
  const constants = new Map([...literalConstants(tree), ...imported]);
  for (const statement of assertionStatements(tree))
    if (whole || statement.inTest)
      for (const value of valuesOfAssertion(statement.text, constants)) values.add(value);
  return values;
}

export interface LiteralReturn {
  line: number;
  value: string;
  scope: string;
  text: string;
}

export const RETURN_LITERAL = new RegExp(`^return\\s+(${LITERAL})\\s*;?$`);

/** Literals returned by production functions, in `return` statements or as a Rust function's tail. */
export function literalReturns(changed: ChangedFile, side: 'before' | 'after'): LiteralReturn[] {
  const index = indexOf(changed.context[side]);
  if (!index || isTestPath(changed.file.path)) return [];
  const found: LiteralReturn[] = [];
  for (const statement of statementsOf(index, 'return_statement', 'expression_statement')) {
    if (statement.inTest || !statement.text.startsWith('return') || statement.text.length > 200) continue;
    const text = normalize(statement.text);
    const value = literalValue(RETURN_LITERAL.exec(text)?.[1] ?? '');
    if (value !== null) found.push({ line: statement.row + 1, value, scope: statement.scope, text });
  }
  if (changed.context.language !== 'rust') return found;
  for (const fn of index.functions) {
    const tail = fn.inTest ? null : fn.body?.lastNamedChild;
    const value = tail && /_literal$/.test(tail.type) ? literalValue(tail.text) : null;
    if (tail && value !== null)
      found.push({ line: tail.startPosition.row + 1, value, scope: fn.name, text: tail.text });
  }
  return found;
}
