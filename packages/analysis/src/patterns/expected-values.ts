import type { Node, Tree } from 'web-tree-sitter';
import { literalValue, literalValuesIn } from './syntax.js';
import { stemOf } from './test-files.js';
import { indexOf, type Located, statementsOf } from './tree-index.js';
import type { ChangedFile } from './types.js';

/** A statement that asserts: `expect(…)`, `assert …`, `self.assertEqual(…)`, `assert_eq!(…)`, `t.Errorf`. */
const ASSERTION_START =
  /^(?:await\s+)?(?:expect\w*\s*[(.]|assert\w*\s*[(!.\s]|self\.assert\w*\s*\(|t\.(?:Error|Errorf|Fatal|Fatalf)\b|require\.\w+\()/;
/** Longer statements are whole tests or set-up, not one assertion. */
const MAX_ASSERTION = 600;
const IDENTIFIER = /(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$])/g;
/** Literal node types of the JavaScript, TypeScript and Python grammars. */
const LITERAL_NODE = new Set(['number', 'string', 'integer', 'float', 'template_string']);
const TS_IMPORT = /\bimport\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const PY_IMPORT = /^\s*from\s+([.\w]+)\s+import\s+\(?([\w\s,]+?)\)?\s*$/gm;

/** The statements of a tree that assert something, with the text of each. */
export function assertionStatements(tree: Tree | null): Located[] {
  return statementsOf(indexOf(tree), 'expression_statement', 'assert_statement').filter(
    (statement) => statement.text.length <= MAX_ASSERTION && ASSERTION_START.test(statement.text),
  );
}

function literalOf(node: Node | null): string | null {
  return node && LITERAL_NODE.has(node.type) ? literalValue(node.text) : null;
}

/**
 * Names bound to a literal in a JavaScript, TypeScript or Python file: `const WANT = 110`,
 * `export const TOTAL = 'ok'`, `WANT = 110`. A name bound twice to different values is left out.
 */
export function literalConstants(tree: Tree | null): Map<string, string> {
  const constants = new Map<string, string>();
  const ambiguous = new Set<string>();
  if (!tree) return constants;
  for (const node of tree.rootNode.descendantsOfType(['variable_declarator', 'assignment'])) {
    if (!node) continue;
    const name = node.childForFieldName(node.type === 'assignment' ? 'left' : 'name');
    const value = literalOf(node.childForFieldName(node.type === 'assignment' ? 'right' : 'value'));
    if (name?.type !== 'identifier' || value === null) continue;
    const known = constants.get(name.text);
    if (known !== undefined && known !== value) ambiguous.add(name.text);
    constants.set(name.text, value);
  }
  for (const name of ambiguous) constants.delete(name);
  return constants;
}

/**
 * The identifiers of an assertion that can hold an expected value: outside calls or directly among an
 * assertion call's arguments (`WANT` in `expect(total(cart)).toBe(WANT)`), not the inputs of the call
 * under test (`cart`) nor called names.
 */
function expectationNames(text: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let from = 0;
  const flush = (to: number) => {
    if (depth > 1) return;
    for (const match of text.slice(from, to).matchAll(IDENTIFIER)) {
      const after = text.slice(from + (match.index ?? 0) + match[0].length).trimStart();
      if (!after.startsWith('(')) names.push(match[0]);
    }
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char !== '(' && char !== ')') continue;
    flush(at);
    depth += char === '(' ? 1 : -1;
    from = at + 1;
  }
  flush(text.length);
  return names;
}

/** The literals an assertion names: written in it, or through a constant it names. */
export function valuesOfAssertion(text: string, constants: ReadonlyMap<string, string>): string[] {
  const values = literalValuesIn(text.replace(/\s+/g, ' '));
  if (constants.size === 0) return values;
  for (const name of expectationNames(text)) {
    const value = constants.get(name);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** An imported name: the module's last path segment and the name it has there. */
export interface ImportedName {
  module: string;
  name: string;
}

/** Names a file imports by name, by local name: `import { A as B } from './fixtures'`, `from tests.fixtures import A`. */
export function importedNames(text: string | null): Map<string, ImportedName> {
  const names = new Map<string, ImportedName>();
  if (text === null) return names;
  for (const [, list = '', specifier = ''] of text.matchAll(TS_IMPORT)) {
    const module = stemOf(specifier.replace(/\/index$/, ''));
    for (const part of list.split(',')) {
      const [name, local] = part
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .map((word) => word.trim());
      if (name) names.set(local || name, { module, name });
    }
  }
  for (const [, specifier = '', list = ''] of text.matchAll(PY_IMPORT)) {
    const module = specifier.split('.').filter(Boolean).pop() ?? '';
    for (const part of list.split(',')) {
      const [name, local] = part.split(/\s+as\s+/).map((word) => word.trim());
      if (name && module) names.set(local || name, { module, name });
    }
  }
  return names;
}

/** A module a test imports from, found among the change's files, and what the test reads from it. */
export interface HelperModule {
  changed: ChangedFile;
  /** The test's local names for the helper's literal constants, with their values. */
  constants: Map<string, string>;
  /** Values the helper's own assertions name (a helper that asserts for the test). */
  asserted: Set<string>;
}

/** The helper modules of a test among `files`: the files whose name a test's named import points at. */
export function helperModules(test: ChangedFile, files: readonly ChangedFile[]): HelperModule[] {
  const imported = importedNames(test.file.after);
  if (imported.size === 0) return [];
  const wanted = new Set([...imported.values()].map((entry) => entry.module));
  const helpers: HelperModule[] = [];
  for (const changed of files) {
    const stem = stemOf(changed.file.path);
    if (changed === test || changed.file.after === null || !wanted.has(stem)) continue;
    const own = literalConstants(changed.context.after);
    const constants = new Map<string, string>();
    for (const [local, entry] of imported) {
      const value = entry.module === stem ? own.get(entry.name) : undefined;
      if (value !== undefined) constants.set(local, value);
    }
    const asserted = new Set<string>();
    for (const statement of assertionStatements(changed.context.after))
      for (const value of valuesOfAssertion(statement.text, own)) asserted.add(value);
    if (constants.size > 0 || asserted.size > 0) helpers.push({ changed, constants, asserted });
  }
  return helpers;
}
