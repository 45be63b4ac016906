import type { ASTNode } from '@marcbachmann/cel-js';
import { GatehouseError } from '../errors.js';
import type { PolicyIssue } from './policy-schema.js';

/** Static limits every policy must stay within, checked when it is saved or dry-run. */
export interface PolicyBudget {
  /** Most rules in one policy. */
  readonly maxRules: number;
  /** Longest condition, in characters. */
  readonly maxConditionChars: number;
  /** Most nodes in a condition's parse tree. */
  readonly maxAstNodes: number;
  /** Deepest nesting of parentheses, calls and member accesses, as the CEL parser counts it. */
  readonly maxAstDepth: number;
  /** Most scopes nested in each other: comprehensions (all, exists, exists_one, map, filter) and cel.bind. */
  readonly maxComprehensionDepth: number;
  /** Most elements in one list literal. */
  readonly maxListLiteral: number;
  /** Most entries in one map literal. */
  readonly maxMapLiteral: number;
  /** Longest string or bytes literal, in characters. */
  readonly maxStringLiteral: number;
  /**
   * Largest `matches()` pattern, in instructions of its compiled RE2 program. Patterns are string
   * literals, compiled when the policy loads; matching takes time linear in the input times this size.
   */
  readonly maxRegexProgramSize: number;
  /**
   * Estimated evaluation steps one request may spend on conditions: each condition costs its
   * parse-tree nodes times (the request's list elements and map entries + 1) to the power of its
   * comprehension nesting. A condition that would go over is not run; its rule gates.
   */
  readonly maxEvaluationCost: number;
}

/** The limits Gatehouse enforces on every policy. */
export const POLICY_BUDGET: PolicyBudget = {
  maxRules: 1000,
  maxConditionChars: 4000,
  maxAstNodes: 500,
  maxAstDepth: 32,
  maxComprehensionDepth: 2,
  maxListLiteral: 100,
  maxMapLiteral: 100,
  maxStringLiteral: 1000,
  maxRegexProgramSize: 5000,
  maxEvaluationCost: 10_000_000,
};

export type PolicyBudgetLimit = keyof PolicyBudget;

/** One limit a condition or policy went over. */
export interface PolicyBudgetViolation {
  limit: PolicyBudgetLimit;
  max: number;
  /** The measured size; null when the parser stopped at the limit without finishing. */
  actual: number | null;
  message: string;
}

/** Macros that run their body once per element, and the binding macro that can double a value per level. */
const SCOPE_MACROS: ReadonlySet<string> = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/** What a walk over one parse tree found. */
interface Measure {
  nodes: number;
  scopeDepth: number;
  list: number;
  map: number;
  string: number;
  /** A `matches()` whose pattern is not a string literal, so it cannot be compiled at load. */
  dynamicRegex: boolean;
}

/** Whether the node opens a scope: a comprehension macro or cel.bind. */
export function isScope(node: ASTNode): boolean {
  if (node.op !== 'rcall') return false;
  const [name, receiver] = node.args;
  return SCOPE_MACROS.has(name) || (name === 'bind' && receiver.op === 'id' && receiver.args === 'cel');
}

/** The operands of a node, in no particular order. */
export function children(node: ASTNode): readonly ASTNode[] {
  switch (node.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [node.args[0]];
    case 'call':
      return node.args[1];
    case 'rcall':
      return [node.args[1], ...node.args[2]];
    case 'list':
      return node.args;
    case 'map':
      return node.args.flat();
    case '!_':
    case '-_':
      return [node.args];
    default:
      return node.args;
  }
}

function literalSize(node: ASTNode): number {
  if (node.op !== 'value') return 0;
  const value = node.args;
  if (typeof value === 'string') return value.length;
  return value instanceof Uint8Array ? value.length : 0;
}

/** The pattern argument of `s.matches(p)` or `matches(s, p)`; undefined for any other node. */
function patternOf(node: ASTNode): ASTNode | undefined {
  if (node.op === 'rcall' && node.args[0] === 'matches') return node.args[2][0];
  if (node.op === 'call' && node.args[0] === 'matches') return node.args[1][1];
  return undefined;
}

const isStringLiteral = (node: ASTNode): node is ASTNode & { args: string } =>
  node.op === 'value' && typeof node.args === 'string';

/** The string-literal patterns of every `matches()` in a parsed condition. */
export function literalPatterns(root: ASTNode): string[] {
  const patterns: string[] = [];
  const stack: ASTNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const pattern = patternOf(node);
    if (pattern !== undefined && isStringLiteral(pattern)) patterns.push(pattern.args);
    stack.push(...children(node));
  }
  return patterns;
}

/** Walks the tree without recursion, so a deep tree cannot overflow the stack before it is refused. */
function measure(root: ASTNode): Measure {
  const found: Measure = {
    nodes: 0,
    scopeDepth: 0,
    list: 0,
    map: 0,
    string: 0,
    dynamicRegex: false,
  };
  const stack: { node: ASTNode; scopes: number }[] = [{ node: root, scopes: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node } = item;
    const scopes = item.scopes + (isScope(node) ? 1 : 0);
    found.nodes += 1;
    found.scopeDepth = Math.max(found.scopeDepth, scopes);
    if (node.op === 'list') found.list = Math.max(found.list, node.args.length);
    if (node.op === 'map') found.map = Math.max(found.map, node.args.length);
    found.string = Math.max(found.string, literalSize(node));
    const pattern = patternOf(node);
    if (pattern !== undefined && !isStringLiteral(pattern)) found.dynamicRegex = true;
    for (const child of children(node)) stack.push({ node: child, scopes });
  }
  return found;
}

const DESCRIBE: Record<PolicyBudgetLimit, (max: number, n: string) => string> = {
  maxRules: (max, n) => `the policy has ${n} rules; at most ${max} are allowed`,
  maxConditionChars: (max, n) => `the condition is ${n} characters long; at most ${max} are allowed`,
  maxAstNodes: (max, n) => `the condition has ${n} parse-tree nodes; at most ${max} are allowed`,
  maxAstDepth: (max, n) => `the condition nests ${n} levels deep; at most ${max} are allowed`,
  maxComprehensionDepth: (max, n) =>
    `the condition nests ${n} comprehensions or cel.bind in each other (all, exists, exists_one, map, filter); at most ${max} are allowed`,
  maxListLiteral: (max, n) => `a list literal has ${n} elements; at most ${max} are allowed`,
  maxMapLiteral: (max, n) => `a map literal has ${n} entries; at most ${max} are allowed`,
  maxStringLiteral: (max, n) => `a string literal is ${n} characters long; at most ${max} are allowed`,
  maxRegexProgramSize: (max, n) =>
    n === 'dynamic'
      ? 'a matches() pattern is not a string literal, so it cannot be compiled and checked when the policy loads; write it out'
      : `a matches() pattern compiles to ${n} instructions; at most ${max} are allowed (large counted repetitions such as .{1000} add one instruction per count)`,
  maxEvaluationCost: (max, n) => `evaluating would take about ${n} steps; at most ${max} are allowed`,
};

function violation(limit: PolicyBudgetLimit, actual: number | null, budget: PolicyBudget) {
  const max = budget[limit];
  const size = actual === null ? `more than ${max}` : String(actual);
  return { limit, max, actual, message: `${DESCRIBE[limit](max, size)} (limit ${limit})` };
}

function dynamicPattern(budget: PolicyBudget): PolicyBudgetViolation {
  const max = budget.maxRegexProgramSize;
  const message = `${DESCRIBE.maxRegexProgramSize(max, 'dynamic')} (limit maxRegexProgramSize)`;
  return { limit: 'maxRegexProgramSize', max, actual: null, message };
}

function over(limit: PolicyBudgetLimit, actual: number, budget: PolicyBudget): PolicyBudgetViolation[] {
  return actual <= budget[limit] ? [] : [violation(limit, actual, budget)];
}

/** The limits a condition's text goes over before it is parsed. */
export function conditionTextViolations(
  source: string,
  budget: PolicyBudget = POLICY_BUDGET,
): PolicyBudgetViolation[] {
  return over('maxConditionChars', source.length, budget);
}

/** The limits a parsed condition goes over; the first is the one to report. */
export function conditionTreeViolations(
  ast: ASTNode,
  budget: PolicyBudget = POLICY_BUDGET,
): PolicyBudgetViolation[] {
  const m = measure(ast);
  return [
    ...over('maxAstNodes', m.nodes, budget),
    ...over('maxComprehensionDepth', m.scopeDepth, budget),
    ...over('maxListLiteral', m.list, budget),
    ...over('maxMapLiteral', m.map, budget),
    ...over('maxStringLiteral', m.string, budget),
    ...(m.dynamicRegex ? [dynamicPattern(budget)] : []),
  ];
}

/** The pattern-size limit, for a `matches()` pattern compiled to `programSize` instructions. */
export function regexProgramSizeViolations(
  programSize: number,
  budget: PolicyBudget = POLICY_BUDGET,
): PolicyBudgetViolation[] {
  return over('maxRegexProgramSize', programSize, budget);
}

/** The rule-count limit, for a policy with `ruleCount` rules. */
export function ruleCountViolations(
  ruleCount: number,
  budget: PolicyBudget = POLICY_BUDGET,
): PolicyBudgetViolation[] {
  return over('maxRules', ruleCount, budget);
}

const PARSER_LIMITS: Readonly<Record<string, PolicyBudgetLimit>> = {
  maxAstNodes: 'maxAstNodes',
  maxDepth: 'maxAstDepth',
  maxListElements: 'maxListLiteral',
  maxMapEntries: 'maxMapLiteral',
};

/** The CEL parser's structural limits, so it stops at our limits instead of building a huge tree first. */
export function parserLimits(budget: PolicyBudget = POLICY_BUDGET) {
  return {
    maxAstNodes: budget.maxAstNodes,
    maxDepth: budget.maxAstDepth,
    maxListElements: budget.maxListLiteral,
    maxMapEntries: budget.maxMapLiteral,
  };
}

/** The budget violation behind a parser error, when the parser stopped at one of `parserLimits`. */
export function parserLimitViolation(
  error: unknown,
  budget: PolicyBudget = POLICY_BUDGET,
): PolicyBudgetViolation | null {
  const e = error as { code?: unknown; message?: unknown };
  if (e?.code !== 'limit_exceeded' || typeof e.message !== 'string') return null;
  const key = /Exceeded (\w+)/.exec(e.message)?.[1];
  const limit = key === undefined ? undefined : PARSER_LIMITS[key];
  return limit === undefined ? null : violation(limit, null, budget);
}

/** A budget violation placed at its rule. */
export type PolicyBudgetIssue = PolicyIssue & Omit<PolicyBudgetViolation, 'message'>;

function describeAt(issue: PolicyBudgetIssue): string {
  if (issue.ruleIndex === null) return issue.message;
  const id = issue.ruleId === null ? '' : `"${issue.ruleId}" `;
  return `rule ${id}at index ${issue.ruleIndex} (${issue.path}): ${issue.message}`;
}

/** The VALIDATION_FAILED error for a policy over its budget: the message names the first rule and limit. */
export function policyBudgetError(name: string | null, issues: PolicyBudgetIssue[]): GatehouseError {
  const first = issues[0];
  const subject = name === null ? 'policy' : `policy "${name}"`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  const message = `${subject} is over its budget: ${first === undefined ? 'unknown limit' : describeAt(first)}${more}`;
  const fields = issues.map((issue) => ({ field: issue.path, message: describeAt(issue) }));
  return new GatehouseError('VALIDATION_FAILED', message, { policy: name, fields, issues });
}
