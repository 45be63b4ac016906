import type { Node, Tree } from 'web-tree-sitter';
import type { LanguageId } from '../types.js';

/** Node types that define a function with a body, per grammar. */
const FUNCTION_TYPES = new Set([
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
]);

const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);

/** Node types that name a scope for a function's qualified name. */
const SCOPE_TYPES = new Set([
  'class_declaration',
  'class_definition',
  'abstract_class_declaration',
  'interface_declaration',
  'impl_item',
  'mod_item',
  'enum_declaration',
]);

export interface FunctionInfo {
  node: Node;
  /** Qualified by enclosing classes and functions: `Cart.total`, `tests.adds`. */
  name: string;
  body: Node;
  /** Body statements without comments (Go's statement list unwrapped). */
  statements: Node[];
}

export function isComment(node: Node): boolean {
  return COMMENT_TYPES.has(node.type);
}

/** Collapses whitespace so reformatting does not count as a change. */
export function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function ownName(node: Node): string | null {
  const field = node.type === 'impl_item' ? 'type' : 'name';
  const named = node.childForFieldName(field);
  if (named) return named.text;
  // An arrow function or function expression takes the name of what it is assigned to.
  const parent = node.parent;
  if (
    parent &&
    (parent.type === 'variable_declarator' ||
      parent.type === 'pair' ||
      parent.type === 'assignment_expression')
  ) {
    return (
      (
        parent.childForFieldName('name') ??
        parent.childForFieldName('key') ??
        parent.childForFieldName('left')
      )?.text ?? null
    );
  }
  return null;
}

function qualifiedName(node: Node): string {
  const parts: string[] = [ownName(node) ?? `<anonymous@${node.startPosition.row + 1}>`];
  for (let up = node.parent; up; up = up.parent) {
    if (SCOPE_TYPES.has(up.type) || FUNCTION_TYPES.has(up.type)) {
      const name = ownName(up);
      if (name) parts.unshift(name);
    }
  }
  return parts.join('.');
}

/** The statements of a block, without comments; Go wraps them in a statement list. */
export function blockStatements(block: Node): Node[] {
  const named = block.namedChildren.filter((child): child is Node => child !== null && !isComment(child));
  if (named.length === 1 && named[0]?.type === 'statement_list') {
    return named[0].namedChildren.filter((child): child is Node => child !== null && !isComment(child));
  }
  return named;
}

/** Every function with a block body in a tree, in source order. */
export function functionsOf(tree: Tree | null): FunctionInfo[] {
  if (!tree) return [];
  const found: FunctionInfo[] = [];
  const visit = (node: Node): void => {
    if (FUNCTION_TYPES.has(node.type)) {
      const body = node.childForFieldName('body');
      if (body && (body.type === 'statement_block' || body.type === 'block')) {
        found.push({ node, name: qualifiedName(node), body, statements: blockStatements(body) });
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(tree.rootNode);
  return found;
}

/** Functions by qualified name (the first of a name wins, as overloads are rare in changes). */
export function functionsByName(tree: Tree | null): Map<string, FunctionInfo> {
  const byName = new Map<string, FunctionInfo>();
  for (const fn of functionsOf(tree)) if (!byName.has(fn.name)) byName.set(fn.name, fn);
  return byName;
}

/** Every comment node of a tree. */
export function commentsOf(tree: Tree | null): Node[] {
  if (!tree) return [];
  return tree.rootNode.descendantsOfType([...COMMENT_TYPES]).filter((node): node is Node => node !== null);
}

/** A comment's text without its markers (line, hash and block comment markers, and a block's leading stars). */
export function commentBody(text: string): string {
  return text
    .replace(/^\s*(\/\/+|#+|\/\*+|--)/, '')
    .replace(/\*+\/\s*$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*(?!\/)\s?/, ''))
    .join('\n')
    .trim();
}

/** The innermost function around a node, if any. */
export function enclosingFunction(node: Node): Node | null {
  for (let up = node.parent; up; up = up.parent) if (FUNCTION_TYPES.has(up.type)) return up;
  return null;
}

/** The qualified name of the function around a node, or `<top>`. */
export function scopeName(node: Node): string {
  const fn = enclosingFunction(node);
  return fn ? qualifiedName(fn) : '<top>';
}

const LITERAL_TYPES = new Set([
  'number',
  'string',
  'integer',
  'float',
  'int_literal',
  'float_literal',
  'interpreted_string_literal',
  'raw_string_literal',
  'decimal_integer_literal',
  'decimal_floating_point_literal',
  'hex_integer_literal',
  'string_literal',
  'integer_literal',
  'template_string',
]);

/** The value of a number or string literal node, comparable across languages; null otherwise. */
export function literalValue(node: Node): string | null {
  if (!LITERAL_TYPES.has(node.type)) return null;
  if (node.type === 'template_string' && node.text.includes('${')) return null;
  const text = node.text;
  const quoted = /^[rbfuRBFU]*(["'`])([\s\S]*)\1$/.exec(text);
  if (quoted) return `s:${quoted[2]}`;
  const number = Number(
    text.replace(/_/g, '').replace(/(?:[iu](?:8|16|32|64|128|size)|f32|f64|[lLfFdD])$/, ''),
  );
  return Number.isFinite(number) ? `n:${number}` : null;
}

/** Values too common to mean anything when a function returns them and a test expects them. */
export function isTrivialValue(value: string): boolean {
  return ['n:0', 'n:1', 'n:-1', 's:'].includes(value);
}

/** 1-based line of a node. */
export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/** Languages whose comments start with `#`. */
export function hashComments(language: LanguageId): boolean {
  return language === 'python' || language === 'other';
}
