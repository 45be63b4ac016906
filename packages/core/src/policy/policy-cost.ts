import type { ASTNode } from '@marcbachmann/cel-js';
import { children, isScope } from './policy-budget.js';

/** What the evaluation-cost estimate needs to know of a condition. */
export interface ConditionCostModel {
  readonly nodes: number;
  /** Comprehensions and cel.bind nested in each other. */
  readonly scopeDepth: number;
  /** An `in`, or a `+` that may join lists, runs inside a comprehension, on every iteration. */
  readonly searchesLists: boolean;
  /** A call that copies or splits a string runs inside a comprehension, on every iteration. */
  readonly copiesStrings: boolean;
  /** The comprehension nesting of each `matches()`, which scans its whole string each time it runs. */
  readonly scanDepths: readonly number[];
}

/**
 * Estimated steps per character a `matches()` scans: the linear-time engine spends from a few to a
 * few hundred nanoseconds on each, many times a backtracking engine's best case.
 */
export const REGEX_STEPS_PER_CHAR = 10;

/** How much a request gives comprehensions to walk. */
export interface RequestSize {
  /** List elements and map entries anywhere in the request. */
  elements: number;
  /** Elements of the largest single list (or entries of the largest map). */
  largest: number;
  /** Characters of the longest string. */
  longestString: number;
}

/** Built-ins whose result is as large as their input string: split, join and the copying ones. */
const COPYING_CALLS: ReadonlySet<string> = new Set([
  'split',
  'join',
  'lowerAscii',
  'upperAscii',
  'bytes',
  'base64',
  'hex',
  'json',
]);

const isNumberLiteral = (node: ASTNode) =>
  node.op === 'value' && (typeof node.args === 'number' || typeof node.args === 'bigint');

/** `x in list` searches the list; `a + b` may copy two lists, unless a number shows it is arithmetic. */
function searchesList(node: ASTNode): boolean {
  if (node.op === 'in') return true;
  return node.op === '+' && !node.args.some(isNumberLiteral);
}

function copiesString(node: ASTNode): boolean {
  return (node.op === 'call' || node.op === 'rcall') && COPYING_CALLS.has(node.args[0]);
}

function scansString(node: ASTNode): boolean {
  return (node.op === 'call' || node.op === 'rcall') && node.args[0] === 'matches';
}

/** The cost model of a parsed condition, walked without recursion. */
export function conditionCostModel(root: ASTNode): ConditionCostModel {
  const model = {
    nodes: 0,
    scopeDepth: 0,
    searchesLists: false,
    copiesStrings: false,
    scanDepths: [] as number[],
  };
  const stack: { node: ASTNode; scopes: number }[] = [{ node: root, scopes: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node } = item;
    const scopes = item.scopes + (isScope(node) ? 1 : 0);
    model.nodes += 1;
    model.scopeDepth = Math.max(model.scopeDepth, scopes);
    if (scopes > 0 && searchesList(node)) model.searchesLists = true;
    if (scopes > 0 && copiesString(node)) model.copiesStrings = true;
    if (scansString(node)) model.scanDepths.push(scopes);
    for (const child of children(node)) stack.push({ node: child, scopes });
  }
  return model;
}

/** Whether estimating the condition's cost needs the request's size. */
export function needsRequestSize(model: ConditionCostModel): boolean {
  return model.scopeDepth > 0 || model.scanDepths.length > 0;
}

/**
 * Estimated steps of one condition over a request: nodes × (elements + 1) ^ comprehension nesting,
 * times the largest list again when a search or list join runs on every iteration, and times the
 * longest string when a string is copied or split on every iteration; plus, for each `matches()`,
 * REGEX_STEPS_PER_CHAR × the longest string, as often as its comprehensions run it.
 */
export function estimateConditionCost(model: ConditionCostModel, size: RequestSize): number {
  const runs = (depth: number) => (size.elements + 1) ** depth;
  const searches = model.searchesLists ? size.largest + 1 : 1;
  const copies = model.copiesStrings ? size.longestString + 1 : 1;
  const scans = model.scanDepths.reduce((sum, depth) => sum + runs(depth), 0);
  const scanning = scans * REGEX_STEPS_PER_CHAR * (size.longestString + 1);
  return model.nodes * runs(model.scopeDepth) * searches * copies + scanning;
}

/** The size of `value` as comprehensions see it; counting stops once it passes `cap` elements. */
export function measureRequestSize(value: unknown, cap = Number.MAX_SAFE_INTEGER): RequestSize {
  const size: RequestSize = { elements: 0, largest: 0, longestString: 0 };
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined && size.elements <= cap; item = stack.pop()) {
    if (typeof item === 'string') size.longestString = Math.max(size.longestString, item.length);
    if (typeof item !== 'object' || item === null) continue;
    const values = Array.isArray(item) ? item : Object.values(item);
    size.elements += values.length;
    size.largest = Math.max(size.largest, values.length);
    for (const child of values)
      if (typeof child === 'string' || (typeof child === 'object' && child !== null)) stack.push(child);
  }
  return size;
}
