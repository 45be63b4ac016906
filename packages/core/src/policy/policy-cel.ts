import { type ASTNode, Environment } from '@marcbachmann/cel-js';
import { readAction } from '../destructive/command-reader.js';
import {
  type AlwaysGatedCategory,
  classifyAlwaysGated,
  isDestructiveCommand,
} from '../destructive/destructive.js';
import { isReadOnlyTool } from '../gates/request-verdict.js';
import { containsHiddenCharacters } from '../reveal.js';
import { RISK_LEVELS, type RiskLevel } from '../schemas.js';
import { operationKindOf } from './operation-kind.js';
import {
  conditionTextViolations,
  conditionTreeViolations,
  literalPatterns,
  POLICY_BUDGET,
  type PolicyBudgetViolation,
  parserLimits,
  parserLimitViolation,
  regexProgramSizeViolations,
} from './policy-budget.js';
import {
  type ConditionCostModel,
  conditionCostModel,
  estimateConditionCost,
  measureRequestSize,
  needsRequestSize,
  type RequestSize,
} from './policy-cost.js';
import { createLinearMatcher, type LinearMatcher } from './policy-regex.js';
import type { PolicyRequest } from './policy-schema.js';

/** Variables a policy condition can read, with their CEL types. */
export const POLICY_CONDITION_VARIABLES = {
  request: 'map',
  tool: 'dyn',
  args: 'map',
  event: 'string',
  risk: 'dyn',
  confidence: 'dyn',
  agent: 'map',
  actor: 'map',
  run: 'dyn',
  impact: 'dyn',
} as const;

/** Functions a policy condition can call besides CEL's own. */
export const POLICY_CONDITION_FUNCTIONS = [
  'isDestructive(string): bool',
  'alwaysGated(): bool',
  'alwaysGatedCategories(): list<string>',
  'riskAtLeast(string): bool',
  'hasHiddenCharacters(): bool',
  'readOnlyCommand(): bool',
  'operationKind(): string',
] as const;

/** One request prepared for condition evaluation; the always-gated categories are computed at most once. */
export interface ConditionContext {
  readonly request: PolicyRequest;
  readonly activation: Readonly<Record<keyof typeof POLICY_CONDITION_VARIABLES, unknown>>;
  categories: AlwaysGatedCategory[] | null;
  /** How much the request gives comprehensions to walk, measured when one first needs it. */
  size: RequestSize | null;
  /** Estimated evaluation steps spent on this request's conditions so far. */
  spent: number;
}

/** A condition parsed and type-checked at load, ready to run many times. */
export type CompiledCondition = (activation: ConditionContext['activation']) => unknown;

export type ConditionCompileResult =
  | { ok: true; condition: CompiledCondition }
  | { ok: false; message: string; budget?: PolicyBudgetViolation };

/** Compiles conditions once and runs them against requests. */
export interface ConditionEnvironment {
  compile(source: string): ConditionCompileResult;
  /** True when the condition holds; throws when it cannot be evaluated. */
  run(condition: CompiledCondition, context: ConditionContext): boolean;
}

/** Prepares a request for condition evaluation. */
export function createConditionContext(request: PolicyRequest): ConditionContext {
  return {
    request,
    activation: {
      request,
      tool: request.tool ?? null,
      args: request.args,
      event: request.event,
      risk: request.risk ?? null,
      confidence: request.confidence ?? null,
      agent: request.agent,
      // A request for nobody in particular reads as no user and no groups, so `in actor.groups` is false.
      actor: request.actor ?? { user: null, groups: [] },
      run: request.run ?? null,
      impact: request.impact ?? null,
    },
    categories: null,
    size: null,
    spent: 0,
  };
}

/** The always-gated categories of the request's action, computed on first use. */
export function alwaysGatedCategoriesOf(context: ConditionContext): AlwaysGatedCategory[] {
  if (context.categories === null) context.categories = classifyAlwaysGated(context.request);
  return context.categories;
}

/** Proven read-only by the command reader; the known read tools keep rules of their own. */
function readOnlyCommand(request: PolicyRequest): boolean {
  return !isReadOnlyTool(request.tool) && readAction(request).readOnly;
}

/** Hidden characters anywhere in what the agent asks to do: tool, operation, arguments or affected files. */
export function requestHasHiddenCharacters(request: PolicyRequest): boolean {
  // The policy's condition and the server's always-gated check ask about the same request.
  const known = hiddenByRequest.get(request);
  if (known !== undefined) return known;
  const found = containsHiddenCharacters([request.tool, request.operation, request.args, request.impact]);
  hiddenByRequest.set(request, found);
  return found;
}

const hiddenByRequest = new WeakMap<PolicyRequest, boolean>();

function isRiskLevel(value: unknown): value is RiskLevel {
  return typeof value === 'string' && (RISK_LEVELS as readonly string[]).includes(value);
}

function riskAtLeast(context: ConditionContext, level: string): boolean {
  if (!isRiskLevel(level))
    throw new Error(`riskAtLeast: unknown risk level "${level}"; use ${RISK_LEVELS.join(', ')}`);
  const risk = context.request.risk;
  return risk !== undefined && RISK_LEVELS.indexOf(risk) >= RISK_LEVELS.indexOf(level);
}

/** Risk levels written as literals in `riskAtLeast("…")` calls that do not exist. */
function unknownRiskLiterals(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) unknownRiskLiterals(item, found);
  } else if (typeof node === 'object' && node !== null && 'op' in node && 'args' in node) {
    const { op, args } = node as { op: string; args: unknown };
    if (op === 'call' && Array.isArray(args) && args[0] === 'riskAtLeast') {
      const first = (args[1] as { op?: string; args?: unknown }[] | undefined)?.[0];
      if (first?.op === 'value' && !isRiskLevel(first.args)) found.push(String(first.args));
    }
    unknownRiskLiterals(args, found);
  }
  return found;
}

function describeCelError(kind: string, error: unknown): string {
  const e = error as { summary?: string; message?: string; code?: string; range?: { start: number } };
  const summary = e.summary ?? e.message?.split('\n')[0] ?? String(error);
  const where = e.range === undefined ? '' : ` at column ${e.range.start + 1}`;
  if (e.code === 'unknown_variable') {
    return `${summary}${where}; conditions can read ${Object.keys(POLICY_CONDITION_VARIABLES).join(', ')}`;
  }
  return `CEL ${kind} error: ${summary}${where}`;
}

/** What the `matches` macro uses of cel-js's type checker and evaluator, which the library leaves untyped. */
interface CelType {
  name: string;
  kind: string;
}
interface MacroChecker {
  check(node: ASTNode, ctx: unknown): CelType;
  getType(name: string): CelType;
  formatType(type: CelType): string;
  createError(code: string, message: string, node: ASTNode): Error;
}
interface MacroEvaluator {
  run(node: ASTNode, ctx: unknown): unknown;
}

const isStringType = (type: CelType) => type.name === 'string' || type.kind === 'dyn';

function runtimeType(value: unknown): string {
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'map' : typeof value;
}

/** `text.matches(pattern)` as a macro, so every member-call form runs through `run`. */
function matchesMacro(
  { receiver, args }: { receiver: ASTNode; args: ASTNode[] },
  run: (text: unknown, pattern: unknown) => boolean,
) {
  const pattern = args[0] as ASTNode;
  return {
    typeCheck(checker: MacroChecker, _macro: unknown, ctx: unknown): CelType {
      const types = [checker.check(receiver, ctx), checker.check(pattern, ctx)] as const;
      if (!types.every(isStringType)) {
        const [text, regex] = types.map((type) => checker.formatType(type));
        const message = `found no matching overload for '${text}.matches(${regex})'`;
        throw checker.createError('no_matching_overload', message, receiver);
      }
      return checker.getType('bool');
    },
    evaluate: (evaluator: MacroEvaluator, _macro: unknown, ctx: unknown) =>
      run(evaluator.run(receiver, ctx), evaluator.run(pattern, ctx)),
  };
}

/** CEL's `matches`, both forms, on the linear-time engine instead of JavaScript's backtracking RegExp. */
function registerMatches(env: Environment, matcher: LinearMatcher): Environment {
  const run = (text: unknown, pattern: unknown): boolean => {
    if (typeof text !== 'string' || typeof pattern !== 'string') {
      throw new Error(
        `matches: needs a string and a pattern (got ${runtimeType(text)} and ${runtimeType(pattern)})`,
      );
    }
    return matcher.matches(text, pattern);
  };
  // cel-js cannot replace its built-in string.matches. A receiver macro takes over every `x.matches(p)`
  // as the condition is parsed, whatever x is; declaring it on bytes keeps it clear of the built-in.
  return env
    .registerFunction('matches(string, string): bool', run)
    .registerFunction('bytes.matches(ast): bool', (call: Parameters<typeof matchesMacro>[0]) =>
      matchesMacro(call, run),
    );
}

/** Each `matches()` pattern compiled once at load: refused when it cannot run in linear time or is too large. */
function checkPatterns(ast: ASTNode, matcher: LinearMatcher): ConditionCompileResult | null {
  for (const pattern of literalPatterns(ast)) {
    const compiled = matcher.compile(pattern);
    if (!compiled.ok) {
      const shown = pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern;
      return { ok: false, message: `matches() pattern "${shown}" cannot be used: ${compiled.reason}` };
    }
    const tooBig = regexProgramSizeViolations(compiled.programSize)[0];
    if (tooBig !== undefined) return overBudget(tooBig);
  }
  return null;
}

function registerAll(env: Environment, scope: { current: ConditionContext | null }): Environment {
  const current = (): ConditionContext => {
    if (scope.current === null) throw new Error('policy functions run only while a request is evaluated');
    return scope.current;
  };
  for (const [name, type] of Object.entries(POLICY_CONDITION_VARIABLES)) env.registerVariable(name, type);
  return env
    .registerFunction(POLICY_CONDITION_FUNCTIONS[0], (command: string) => isDestructiveCommand(command))
    .registerFunction(POLICY_CONDITION_FUNCTIONS[1], () => alwaysGatedCategoriesOf(current()).length > 0)
    .registerFunction(POLICY_CONDITION_FUNCTIONS[2], () => [...alwaysGatedCategoriesOf(current())])
    .registerFunction(POLICY_CONDITION_FUNCTIONS[3], (level: string) => riskAtLeast(current(), level))
    .registerFunction(POLICY_CONDITION_FUNCTIONS[4], () => requestHasHiddenCharacters(current().request))
    .registerFunction(POLICY_CONDITION_FUNCTIONS[5], () => readOnlyCommand(current().request))
    .registerFunction(POLICY_CONDITION_FUNCTIONS[6], () => {
      const { request } = current();
      return request.tool === undefined ? (operationKindOf(request.operation) ?? '') : '';
    });
}

function overBudget(violation: PolicyBudgetViolation): ConditionCompileResult {
  return { ok: false, message: violation.message, budget: violation };
}

type CostModels = WeakMap<CompiledCondition, ConditionCostModel>;

const EMPTY: RequestSize = { elements: 0, largest: 0, longestString: 0 };

/** Charges a condition's estimated cost to the request, or throws when it would go over the budget. */
function charge(context: ConditionContext, model: ConditionCostModel): void {
  const max = POLICY_BUDGET.maxEvaluationCost;
  const sized = needsRequestSize(model);
  if (sized && context.size === null) context.size = measureRequestSize(context.request, max);
  const size = sized ? (context.size ?? EMPTY) : EMPTY;
  const cost = estimateConditionCost(model, size);
  if (context.spent + cost > max) {
    const scanned =
      model.scanDepths.length > 0 ? ` and its ${size.longestString}-character longest string` : '';
    throw new Error(
      `not run: over the evaluation budget (about ${cost} steps over the request's ${size.elements} list elements and map entries${scanned}; ${max - context.spent} of ${max} left)`,
    );
  }
  context.spent += cost;
}

interface Compiler {
  env: Environment;
  models: CostModels;
  matcher: LinearMatcher;
  /** The request under evaluation, for conditions run without the evaluator. */
  current(): ConditionContext;
}

type AstLike = { op?: unknown; args?: unknown };

function isCallOf(node: unknown, name: string): boolean {
  const { op, args } = (node ?? {}) as AstLike;
  return (
    op === 'call' && Array.isArray(args) && args[0] === name && Array.isArray(args[1]) && args[1].length === 0
  );
}

function stringLiteral(node: unknown): string | null {
  const { op, args } = (node ?? {}) as AstLike;
  return op === 'value' && typeof args === 'string' ? args : null;
}

/** What a condition of a shape every request meets in the default policy asks, answered directly. */
function directTest(ast: unknown): ((context: ConditionContext) => boolean) | null {
  if (isCallOf(ast, 'hasHiddenCharacters')) return (context) => requestHasHiddenCharacters(context.request);
  const { op, args } = (ast ?? {}) as AstLike;
  if (op !== 'in' || !Array.isArray(args) || !isCallOf(args[1], 'alwaysGatedCategories')) return null;
  const category = stringLiteral(args[0]);
  return category === null
    ? null
    : (context) => (alwaysGatedCategoriesOf(context) as string[]).includes(category);
}

/**
 * `hasHiddenCharacters()` and `"…" in alwaysGatedCategories()` without walking the CEL tree: the
 * default policy runs seven such conditions on every request. Should the direct answer throw, CEL
 * runs instead, so the error reads as it always did.
 */
function directCondition(parsed: CompiledCondition & { ast: unknown }, compiler: Compiler) {
  const test = directTest(parsed.ast);
  if (test === null) return parsed;
  const condition: CompiledCondition = (activation) => {
    try {
      return test(compiler.current());
    } catch {
      return parsed(activation);
    }
  };
  return condition;
}

function compileWith(compiler: Compiler, source: string): ConditionCompileResult {
  const { env, models, matcher } = compiler;
  const tooLong = conditionTextViolations(source)[0];
  if (tooLong !== undefined) return overBudget(tooLong);
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.parse(source);
  } catch (error) {
    const limit = parserLimitViolation(error);
    return limit === null ? { ok: false, message: describeCelError('syntax', error) } : overBudget(limit);
  }
  const tooBig = conditionTreeViolations(parsed.ast)[0];
  if (tooBig !== undefined) return overBudget(tooBig);
  const badPattern = checkPatterns(parsed.ast, matcher);
  if (badPattern !== null) return badPattern;
  const checked = parsed.check();
  if (!checked.valid) return { ok: false, message: describeCelError('compile', checked.error) };
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return { ok: false, message: `condition must be a bool expression (it gives ${checked.type})` };
  }
  const badRisk = unknownRiskLiterals(parsed.ast);
  if (badRisk.length > 0) {
    return {
      ok: false,
      message: `riskAtLeast: unknown risk level "${badRisk[0]}"; use ${RISK_LEVELS.join(', ')}`,
    };
  }
  const condition = directCondition(parsed as CompiledCondition & { ast: unknown }, compiler);
  models.set(condition, conditionCostModel(parsed.ast));
  return { ok: true, condition };
}

/** Creates the CEL environment policy conditions compile and run in. */
export function createConditionEnvironment(): ConditionEnvironment {
  // Custom functions read the request under evaluation; evaluation is synchronous, so one slot suffices.
  const scope: { current: ConditionContext | null } = { current: null };
  const options = { homogeneousAggregateLiterals: false, limits: parserLimits() };
  const matcher = createLinearMatcher();
  const env = registerMatches(registerAll(new Environment(options), scope), matcher);
  const models: CostModels = new WeakMap();
  const current = (): ConditionContext => {
    if (scope.current === null) throw new Error('policy functions run only while a request is evaluated');
    return scope.current;
  };
  return {
    compile: (source) => compileWith({ env, models, matcher, current }, source),
    run(condition, context) {
      const model = models.get(condition);
      if (model !== undefined) charge(context, model);
      const previous = scope.current;
      scope.current = context;
      try {
        const result = condition(context.activation);
        if (typeof result !== 'boolean') throw new Error(`condition gave ${typeof result}, not a bool`);
        return result;
      } finally {
        scope.current = previous;
      }
    },
  };
}
