import type { Node, Tree } from 'web-tree-sitter';
import { addedOccurrences } from './added.js';
import { functionsOf, lineOf, normalize } from './syntax.js';
import { isInTestCode } from './test-code.js';
import { isTestPath, stemOf, subjectOf } from './test-files.js';
import type { ChangedFile, DetectorInput, LazinessHit } from './types.js';

const ASSERTION =
  /^(expect\s*\(|assert|self\.assert|t\.(Error|Errorf|Fatal|Fatalf)\b|require\.\w|assert\.\w|verify\(|Assertions\.|.*\)\.should\b|if .*\{\s*t\.(Error|Fatal))/;

const FUNCTION_NODE =
  /^(function_declaration|function_expression|arrow_function|method_definition|function_definition|method_declaration|function_item|func_literal)$/;
const TEST_CALL = /^(it|test|describe|suite|context)(\.\w+)?$/;

function ownTestName(node: Node): string | null {
  const named = node.childForFieldName('name');
  if (named) return named.text;
  const call = node.parent?.type === 'arguments' ? node.parent.parent : null;
  const callee = call?.childForFieldName('function')?.text ?? '';
  if (call?.type === 'call_expression' && TEST_CALL.test(callee)) {
    const title = call.childForFieldName('arguments')?.namedChildren[0];
    if (title) return `${callee.split('.')[0]}(${title.text})`;
  }
  return null;
}

/** A test's name by its functions and `describe`/`it` titles, stable when lines move. */
function testScope(node: Node): string {
  const parts: string[] = [];
  for (let up: Node | null = node; up; up = up.parent) {
    if (FUNCTION_NODE.test(up.type)) parts.unshift(ownTestName(up) ?? '<anonymous>');
  }
  return parts.join(' > ') || '<top>';
}

interface Assertion {
  scope: string;
  text: string;
  node: Node;
}

function assertionsOf(tree: Tree | null, path: string): Assertion[] {
  if (!tree) return [];
  const found: Assertion[] = [];
  for (const node of tree.rootNode.descendantsOfType([
    'expression_statement',
    'assert_statement',
    'if_statement',
  ])) {
    if (!node || !ASSERTION.test(normalize(node.text)) || !isInTestCode(node, path)) continue;
    found.push({ scope: testScope(node), text: normalize(node.text), node });
  }
  return found;
}

export interface RemovedAssertion {
  scope: string;
  text: string;
  /** The test's text before, to see which functions it calls. */
  testText: string;
  /** Where the test starts after the change. */
  line: number;
}

/** Assertions removed from tests that are still there after the change (a removed test is another finding). */
export function removedAssertions({ file, context }: ChangedFile): RemovedAssertion[] {
  if (!context.before || !context.after) return [];
  const afterScopes = new Map<string, Node>();
  for (const fn of functionsOf(context.after)) afterScopes.set(testScope(fn.body), fn.node);
  const before = assertionsOf(context.before, file.path);
  const after = assertionsOf(context.after, file.path);
  const key = (a: Assertion): string => `${a.scope}|${a.text}`;
  // An assertion rewritten in place (a new expected value) is not one deleted: count per test.
  const added = new Map<string, number>();
  for (const a of addedOccurrences(before, after, [key])) added.set(a.scope, (added.get(a.scope) ?? 0) + 1);
  const removed = addedOccurrences(after, before, [key]).filter((a) => {
    const rewritten = added.get(a.scope) ?? 0;
    if (rewritten > 0) added.set(a.scope, rewritten - 1);
    return rewritten === 0;
  });
  return removed.flatMap((a) => {
    const test = afterScopes.get(a.scope);
    let holder: Node | null = a.node.parent;
    while (holder && !FUNCTION_NODE.test(holder.type)) holder = holder.parent;
    return test
      ? [{ scope: a.scope, text: a.text, testText: holder?.text ?? a.text, line: lineOf(test) }]
      : [];
  });
}

/** Short names of the production functions whose body the change alters, adds or removes. */
export function changedProductionFunctions({ file, context }: ChangedFile): Set<string> {
  const bodies = (tree: Tree | null): Map<string, string> => {
    const map = new Map<string, string>();
    for (const fn of functionsOf(tree)) {
      if (!isInTestCode(fn.node, file.path)) map.set(fn.name, normalize(fn.body.text));
    }
    return map;
  };
  const before = bodies(context.before);
  const after = bodies(context.after);
  const changed = new Set<string>();
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(name) !== after.get(name)) changed.add(name.split('.').pop() ?? name);
  }
  return changed;
}

function exercised(test: RemovedAssertion, changed: ReadonlySet<string>): string | null {
  for (const name of changed)
    if (new RegExp(`\\b${name.replace(/[^\w$]/g, '')}\\b`).test(test.testText)) return name;
  return null;
}

function hit(test: RemovedAssertion, confidence: number, where: string): LazinessHit {
  return {
    pattern: 'lazy.assertion_deleted_to_pass',
    confidence,
    line: test.line,
    name: test.scope,
    message: `${test.scope} lost \`${test.text.slice(0, 80)}\` while ${where} changed in the same change`,
  };
}

/** In one file: a test lost an assertion while a function it calls, in the same file, changed. */
export function detectAssertionsDeletedToPass({
  file,
  context,
  baseConfidence,
}: DetectorInput): LazinessHit[] {
  const changed = changedProductionFunctions({ file, context });
  if (changed.size === 0) return [];
  return removedAssertions({ file, context }).flatMap((test) => {
    const name = exercised(test, changed);
    return name ? [hit(test, baseConfidence, `\`${name}\``)] : [];
  });
}

/** Across files: a test file lost an assertion while the production file it tests changed. */
export function assertionsDeletedAcrossFiles(
  test: ChangedFile,
  production: ChangedFile,
  baseConfidence: number,
): LazinessHit[] {
  if (!isTestPath(test.file.path) || isTestPath(production.file.path)) return [];
  if (
    production.file.before === null ||
    production.file.after === null ||
    production.file.before === production.file.after
  )
    return [];
  const removed = removedAssertions(test);
  if (removed.length === 0) return [];
  const changed = changedProductionFunctions(production);
  const stem = stemOf(production.file.path);
  const related =
    subjectOf(test.file.path) === stem ||
    new RegExp(`['"][^'"]*\\b${stem.replace(/\W/g, '')}\\b[^'"]*['"]`).test(test.file.before ?? '');
  return removed.flatMap((assertion) => {
    const name = exercised(assertion, changed);
    if (name) return [hit(assertion, baseConfidence, `\`${name}\` in ${production.file.path}`)];
    return related ? [hit(assertion, baseConfidence * 0.8, production.file.path)] : [];
  });
}
