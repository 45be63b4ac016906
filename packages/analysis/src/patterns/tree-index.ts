import type { Node, Tree } from 'web-tree-sitter';

/**
 * One pass over a tree for every detector. Each step into the WebAssembly tree costs, so the index
 * asks tree-sitter once (`descendantsOfType`, a native scan) and works out scopes from positions.
 */

const FUNCTION_TYPES = [
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'arrow_function',
  'method_definition',
  'function_definition',
  'method_declaration',
  'constructor_declaration',
  'func_literal',
  'function_item',
];
const SCOPE_TYPES = [
  'class_declaration',
  'class_definition',
  'abstract_class_declaration',
  'interface_declaration',
  'impl_item',
  'mod_item',
  'enum_declaration',
];
export const COMMENT_TYPES = ['comment', 'line_comment', 'block_comment'];
/** The statements and clauses the detectors look at. */
const STATEMENT_TYPES = [
  'catch_clause',
  'except_clause',
  'as_expression',
  'annotation',
  'marker_annotation',
  'attribute_item',
  'inner_attribute_item',
  'if_statement',
  'assignment_statement',
  'let_declaration',
  'expression_statement',
  'assert_statement',
  'return_statement',
];

const FUNCTION_SET = new Set(FUNCTION_TYPES);
const COMMENT_SET = new Set(COMMENT_TYPES);
const CONTAINER_SET = new Set([...FUNCTION_TYPES, ...SCOPE_TYPES]);
const TEST_CALL = /^(it|test|describe|suite|context)(\.\w+)?$/;

export interface Span {
  node: Node;
  type: string;
  start: number;
  end: number;
  /** 0-based. */
  row: number;
  text: string;
}

export interface Container extends Span {
  isFunction: boolean;
  /** Its own name, without enclosing scopes; null when anonymous. */
  ownName: string | null;
  /** Its own part of `testScope`. */
  testPart: string;
  /** Qualified by enclosing classes and functions: `Cart.total`. */
  name: string;
  /** Functions only, with `describe`/`it` titles: `describe('cart') > it('adds')`. */
  testScope: string;
  /** A Rust `#[cfg(test)]` module or `#[test]` function, a Python `test_` function or `Test` class. */
  isTest: boolean;
  /** Whether this or an enclosing container is test code. */
  inTest: boolean;
  /** The block body of a function. */
  body: Node | null;
  /** The names of this and the enclosing named containers, dot-joined. */
  path: string;
  /** The nearest enclosing function, not counting this one. */
  innerFunction: Container | null;
}

export interface Located extends Span {
  /** The innermost function around the node, if any. */
  fn: Container | null;
  /** The qualified name of that function, or `<top>`. */
  scope: string;
  testScope: string;
  inTest: boolean;
}

export interface TreeIndex {
  source: string;
  functions: Container[];
  comments: Located[];
  statements: Located[];
  /** Rows of in-file test code (Rust test modules, Python test functions), outermost only. */
  testRanges: { startRow: number; endRow: number }[];
}

function span(node: Node, type: string): Span {
  return {
    node,
    type,
    start: node.startIndex,
    end: node.endIndex,
    row: node.startPosition.row,
    text: node.text,
  };
}

interface OwnName {
  name: string | null;
  title: string | null;
  /** What an anonymous function is passed to, without its position: `on('request')`, `forEach`. */
  role: string;
}

const STRING_ARGUMENT = /^(['"`])[^'"`\n]{0,60}\1$/;

function ownName(node: Node, type: string): OwnName {
  const named = node.childForFieldName(type === 'impl_item' ? 'type' : 'name');
  if (named) return { name: named.text, title: null, role: '' };
  const parent = node.parent;
  if (!parent) return { name: null, title: null, role: '' };
  if (
    parent.type === 'variable_declarator' ||
    parent.type === 'pair' ||
    parent.type === 'assignment_expression'
  ) {
    const target =
      parent.childForFieldName('name') ?? parent.childForFieldName('key') ?? parent.childForFieldName('left');
    return { name: target?.text ?? null, title: null, role: '' };
  }
  const call = parent.type === 'arguments' ? parent.parent : null;
  const callee = call?.type === 'call_expression' ? (call.childForFieldName('function')?.text ?? '') : '';
  const first = callee ? parent.firstNamedChild : null;
  const title = TEST_CALL.test(callee) ? first : null;
  const label = first && first !== node && STRING_ARGUMENT.test(first.text) ? `(${first.text})` : '';
  return {
    name: null,
    title: title ? `${callee.split('.')[0]}(${title.text})` : null,
    role: `${/[\w$]+$/.exec(callee)?.[0] ?? ''}${label}`,
  };
}

/**
 * A name for an anonymous function that survives lines moving around it: what it is passed to, and
 * its rank among the anonymous functions with that name in the same scope.
 */
function anonymousName(qualifiedScope: string, role: string, seen: Map<string, number>): string {
  const base = `${qualifiedScope}<anonymous${role ? ` ${role}` : ''}>`;
  const count = (seen.get(base) ?? 0) + 1;
  seen.set(base, count);
  return count === 1 ? base : `${base}#${count}`;
}

/** The attributes written right before a Rust item, e.g. `#[cfg(test)]`. */
function attributesBefore(start: number, attributes: readonly Span[], source: string): string {
  const found: string[] = [];
  let at = start;
  for (let index = attributes.length - 1; index >= 0; index--) {
    const attribute = attributes[index] as Span;
    if (attribute.end > at) continue;
    if (source.slice(attribute.end, at).trim() !== '') break;
    found.push(attribute.text);
    at = attribute.start;
  }
  return found.join(' ');
}

/** A Python `@overload` signature: a stub by design, beside the function that has the body. */
function isOverloadStub(node: Node, type: string): boolean {
  if (type !== 'function_definition') return false;
  const holder = node.parent;
  return (
    holder?.type === 'decorated_definition' &&
    /@(typing\.)?overload\b/.test(holder.text.slice(0, node.startIndex - holder.startIndex))
  );
}

function isTestContainer(type: string, name: string | null, attributes: string): boolean {
  if (type === 'mod_item') return /cfg\(\s*test\s*\)/.test(attributes);
  if (type === 'function_item') return /#\[(\w+::)*test\]/.test(attributes);
  if (type === 'function_definition') return /^test_/.test(name ?? '');
  if (type === 'class_definition') return /^Test/.test(name ?? '');
  return false;
}

function buildIndex(tree: Tree): TreeIndex {
  const root = tree.rootNode;
  const source = root.text;
  const nodes = root.descendantsOfType([...CONTAINER_SET, ...COMMENT_TYPES, ...STATEMENT_TYPES]);
  const attributes: Span[] = [];
  const stack: Container[] = [];
  const index: TreeIndex = { source, functions: [], comments: [], statements: [], testRanges: [] };
  const anonymous = new Map<string, number>();
  for (const node of nodes) {
    if (!node) continue;
    const type = node.type;
    const here = span(node, type);
    while (stack.length > 0 && (stack.at(-1) as Container).end <= here.start && here.end > here.start)
      stack.pop();
    while (stack.length > 0 && (stack.at(-1) as Container).end < here.end) stack.pop();
    const top = stack.at(-1) ?? null;
    const inner = top ? (top.isFunction ? top : top.innerFunction) : null;
    const inTest = top?.inTest ?? false;
    if (CONTAINER_SET.has(type)) {
      const isFunction = FUNCTION_SET.has(type);
      const { name, title, role } = ownName(node, type);
      const path = top?.path ?? '';
      const qualified =
        name === null
          ? anonymousName(top ? `${top.name}.` : '', role, anonymous)
          : `${path}${path ? '.' : ''}${name}`;
      const testPart = name ?? title ?? '<anonymous>';
      const isTest = isTestContainer(type, name, attributesBefore(here.start, attributes, source));
      const body = isFunction ? node.childForFieldName('body') : null;
      const container: Container = {
        ...here,
        isFunction,
        ownName: name,
        testPart,
        name: qualified,
        testScope: inner ? `${inner.testScope} > ${testPart}` : testPart,
        isTest,
        inTest: inTest || isTest,
        body: body && (body.type === 'statement_block' || body.type === 'block') ? body : null,
        path: name === null ? path : `${path}${path ? '.' : ''}${name}`,
        innerFunction: inner,
      };
      if (isTest && !inTest) index.testRanges.push({ startRow: here.row, endRow: node.endPosition.row });
      stack.push(container);
      if (isFunction && container.body && !isOverloadStub(node, type)) index.functions.push(container);
      continue;
    }
    const located: Located = {
      ...here,
      fn: inner,
      scope: inner?.name ?? '<top>',
      testScope: inner?.testScope ?? '<top>',
      inTest,
    };
    if (type === 'attribute_item') attributes.push(here);
    (COMMENT_SET.has(type) ? index.comments : index.statements).push(located);
  }
  return index;
}

const indexes = new WeakMap<Tree, TreeIndex>();

/** The index of a tree, built once however many detectors read it. */
export function indexOf(tree: Tree | null): TreeIndex | null {
  if (!tree) return null;
  let found = indexes.get(tree);
  if (!found) {
    found = buildIndex(tree);
    indexes.set(tree, found);
  }
  return found;
}

/** The statements of one type, in source order. */
export function statementsOf(index: TreeIndex | null, ...types: string[]): Located[] {
  return index ? index.statements.filter((statement) => types.includes(statement.type)) : [];
}

/** Functions with a block body by qualified name (the first of a name wins: overloads are rare in changes). */
export function functionsByName(index: TreeIndex | null): Map<string, Container> {
  const byName = new Map<string, Container>();
  for (const fn of index?.functions ?? []) if (!byName.has(fn.name)) byName.set(fn.name, fn);
  return byName;
}

/** The innermost function around a position of the source. */
export function enclosingFunction(index: TreeIndex, offset: number): Container | null {
  let found: Container | null = null;
  for (const fn of index.functions) {
    if (fn.start > offset) break;
    if (fn.end >= offset) found = fn;
  }
  return found;
}
