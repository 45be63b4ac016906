import type { Node, Tree } from 'web-tree-sitter';
import { enclosingFunction, literalValue, scopeName } from './syntax.js';
import { TEST_CODE } from './test-commented-out.js';
import { isTestPath } from './test-files.js';
import type { ChangedFile } from './types.js';

function previousAttributes(node: Node): string {
  const texts: string[] = [];
  for (
    let sibling = node.previousNamedSibling;
    sibling?.type === 'attribute_item';
    sibling = sibling.previousNamedSibling
  ) {
    texts.push(sibling.text);
  }
  return texts.join(' ');
}

/** Whether a node sits in test code: a test file, or a test function or module inside a source file. */
export function isInTestCode(node: Node, path: string): boolean {
  if (isTestPath(path)) return true;
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === 'mod_item' && /cfg\(\s*test\s*\)/.test(previousAttributes(up))) return true;
    if (up.type === 'function_item' && /#\[(\w+::)*test\]/.test(previousAttributes(up))) return true;
    if (up.type === 'function_definition' && /^test_/.test(up.childForFieldName('name')?.text ?? ''))
      return true;
    if (up.type === 'class_definition' && /^Test/.test(up.childForFieldName('name')?.text ?? '')) return true;
  }
  return false;
}

const EXPECTATION_LINE = /\b(want|wanted|expected|expect|expects)\b/i;

/** The literal values that test code in a tree asserts or expects, e.g. `n:42`, `s:ok`. */
export function expectedValues(tree: Tree | null, path: string, text: string | null): Set<string> {
  const values = new Set<string>();
  if (!tree || text === null) return values;
  const lines = text.split('\n');
  const visit = (node: Node): void => {
    const value = literalValue(node);
    if (value !== null) {
      const line = lines[node.startPosition.row] ?? '';
      if ((TEST_CODE.test(line) || EXPECTATION_LINE.test(line)) && isInTestCode(node, path))
        values.add(value);
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(tree.rootNode);
  return values;
}

export interface LiteralReturn {
  node: Node;
  value: string;
  scope: string;
}

function returnedLiteral(node: Node): Node | null {
  if (node.type === 'return_statement' || node.type === 'return_expression') {
    let values = node.namedChildren.filter(
      (child): child is Node => child !== null && !/comment/.test(child.type),
    );
    if (values.length === 1 && values[0]?.type === 'expression_list')
      values = values[0].namedChildren.filter((c): c is Node => c !== null);
    return values.length === 1 && values[0] && literalValue(values[0]) !== null ? values[0] : null;
  }
  // A Rust block's tail expression is its value.
  if (
    node.parent?.type === 'block' &&
    node.parent.lastNamedChild?.id === node.id &&
    literalValue(node) !== null
  ) {
    return enclosingFunction(node)?.childForFieldName('body')?.id === node.parent.id ? node : null;
  }
  return null;
}

/** Literals returned by production functions in a tree. */
export function literalReturns(changed: ChangedFile, side: 'before' | 'after'): LiteralReturn[] {
  const tree = changed.context[side];
  if (!tree || isTestPath(changed.file.path)) return [];
  const found: LiteralReturn[] = [];
  const visit = (node: Node): void => {
    const literal = returnedLiteral(node);
    if (literal && !isInTestCode(node, changed.file.path)) {
      const value = literalValue(literal);
      if (value !== null) found.push({ node, value, scope: scopeName(node) });
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(tree.rootNode);
  return found;
}
