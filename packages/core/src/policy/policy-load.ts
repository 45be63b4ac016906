import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { GatehouseError } from '../errors.js';
import { type PolicyBudgetIssue, policyBudgetError, ruleCountViolations } from './policy-budget.js';
import {
  type CompiledCondition,
  type ConditionEnvironment,
  createConditionEnvironment,
} from './policy-cel.js';
import type { CompiledPolicy } from './policy-engine.js';
import { buildPolicyIndex, type CompiledRule, compileRule } from './policy-index.js';
import { type Policy, type PolicyIssue, policySchema } from './policy-schema.js';

/** How a policy text is written. */
export type PolicyFormat = 'yaml' | 'json';

/** Options for compiling a policy. */
export interface CompilePolicyOptions {
  /** Gate types a rule may open; when given, a rule naming another type is rejected. @default any type */
  gateTypes?: Iterable<string>;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path)
    out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  return out;
}

function rawRules(input: unknown): unknown[] {
  const rules =
    typeof input === 'object' && input !== null ? (input as { rules?: unknown }).rules : undefined;
  return Array.isArray(rules) ? rules : [];
}

function rawRuleId(input: unknown, index: number): string | null {
  const rule = rawRules(input)[index];
  const id = typeof rule === 'object' && rule !== null ? (rule as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : null;
}

function issueAt(input: unknown, path: readonly PropertyKey[], message: string): PolicyIssue {
  const ruleIndex = path[0] === 'rules' && typeof path[1] === 'number' ? path[1] : null;
  return {
    ruleId: ruleIndex === null ? null : rawRuleId(input, ruleIndex),
    ruleIndex,
    path: formatPath(path),
    message,
  };
}

/** Zod issues as policy issues; a failed union reports the one branch the input was aimed at. */
function zodIssues(
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
  base: readonly PropertyKey[] = [],
): PolicyIssue[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union') {
      const aimed = issue.errors.filter((branch) => branch.some((i) => i.path.length > 0));
      if (aimed.length === 1) return zodIssues(input, aimed[0]!, path);
    }
    return [issueAt(input, path, issue.message)];
  });
}

function rawRuleField(raw: unknown, field: string): unknown {
  return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[field] : undefined;
}

function duplicateIdIssues(input: unknown): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  const seen = new Map<string, number>();
  rawRules(input).forEach((raw, i) => {
    const id = rawRuleField(raw, 'id');
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, i);
    else
      issues.push(
        issueAt(input, ['rules', i, 'id'], `duplicate rule id "${id}" (first used by rules[${first}])`),
      );
  });
  return issues;
}

interface ConditionChecks {
  compiled: Map<number, CompiledCondition>;
  issues: PolicyIssue[];
  overBudget: PolicyBudgetIssue[];
}

/** Compiles each condition once, keeping the compiled ones by rule index. */
function checkConditions(input: unknown, env: ConditionEnvironment): ConditionChecks {
  const checks: ConditionChecks = { compiled: new Map(), issues: [], overBudget: [] };
  rawRules(input).forEach((raw, i) => {
    const source = rawRuleField(raw, 'condition');
    if (typeof source !== 'string' || source.trim() === '') return;
    const result = env.compile(source);
    if (result.ok) {
      checks.compiled.set(i, result.condition);
      return;
    }
    const issue = issueAt(input, ['rules', i, 'condition'], result.message);
    if (result.budget === undefined) checks.issues.push(issue);
    else checks.overBudget.push({ ...issue, ...result.budget, message: result.message });
  });
  return checks;
}

function rawName(input: unknown): string | null {
  const name = (input as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : null;
}

/** Refuses a policy with more rules than the budget before any condition is compiled. */
function checkRuleCount(input: unknown): void {
  const tooMany = ruleCountViolations(rawRules(input).length)[0];
  if (tooMany === undefined) return;
  const { message, ...limit } = tooMany;
  throw policyBudgetError(rawName(input), [
    { ruleId: null, ruleIndex: null, path: 'rules', message, ...limit },
  ]);
}

function gateTypeIssues(input: unknown, known: ReadonlySet<string>): PolicyIssue[] {
  return rawRules(input).flatMap((raw, i) => {
    const type = (rawRuleField(raw, 'action') as { gate?: { type?: unknown } } | undefined)?.gate?.type;
    if (typeof type !== 'string' || known.has(type)) return [];
    const message = `unknown gate type "${type}"; known: ${[...known].join(', ')}`;
    return [issueAt(input, ['rules', i, 'action', 'gate', 'type'], message)];
  });
}

function describeIssue(issue: PolicyIssue): string {
  if (issue.ruleIndex === null) return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
  const rule = issue.ruleId === null ? `rule at index ${issue.ruleIndex}` : `rule "${issue.ruleId}"`;
  return `${rule} (${issue.path}): ${issue.message}`;
}

/** The POLICY_INVALID error for a list of issues: the message names the first, details list them all. */
export function policyInvalidError(
  name: string | null,
  issues: PolicyIssue[],
  cause?: unknown,
): GatehouseError {
  const first = issues[0];
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const subject = name === null ? 'policy' : `policy "${name}"`;
  const message = `${subject} is invalid: ${first === undefined ? 'unknown problem' : describeIssue(first)}${more}`;
  return new GatehouseError('POLICY_INVALID', message, { policy: name, issues }, cause);
}

function indexRules(policy: Policy, conditions: Map<number, CompiledCondition>) {
  const compiled: CompiledRule[] = policy.rules.map((rule, i) =>
    compileRule(rule, i, conditions.get(i) ?? null),
  );
  const index = buildPolicyIndex(compiled);
  const ranked = new Map(index.ordered.map((rule) => [rule.index, rule]));
  return { rules: compiled.map((rule) => ranked.get(rule.index) ?? rule), index };
}

/**
 * Validates a policy document and compiles every condition once; throws VALIDATION_FAILED naming the rule
 * and limit when it is over POLICY_BUDGET, and POLICY_INVALID listing each other fault.
 * @example const compiled = compilePolicy({ name: 'p', rules: [{ id: 'reads', priority: 100, match: { tools: ['read_file'] }, action: 'allow', reason: 'reads are safe' }] })
 */
export function compilePolicy(input: unknown, options: CompilePolicyOptions = {}): CompiledPolicy {
  checkRuleCount(input);
  const conditions = createConditionEnvironment();
  const checked = checkConditions(input, conditions);
  if (checked.overBudget.length > 0) throw policyBudgetError(rawName(input), checked.overBudget);
  const parsed = policySchema.safeParse(input);
  const issues = [
    ...(parsed.success ? [] : zodIssues(input, parsed.error.issues)),
    ...duplicateIdIssues(input),
    ...checked.issues,
    ...(options.gateTypes === undefined ? [] : gateTypeIssues(input, new Set(options.gateTypes))),
  ];
  if (!parsed.success || issues.length > 0) throw policyInvalidError(rawName(input), sortIssues(issues));
  const policy = parsed.data;
  const { rules, index } = indexRules(policy, checked.compiled);
  return {
    name: policy.name,
    policy,
    defaultAction: policy.defaultAction,
    rules,
    index,
    conditions,
    failure: null,
  };
}

function sortIssues(issues: PolicyIssue[]): PolicyIssue[] {
  return [...issues].sort((a, b) => (a.ruleIndex ?? -1) - (b.ruleIndex ?? -1));
}

/** Reads a policy text as YAML or JSON (JSON when `format` is left out and the text starts with `{`). */
export function parsePolicyText(text: string, format?: PolicyFormat): unknown {
  const kind = format ?? (text.trimStart().startsWith('{') ? 'json' : 'yaml');
  try {
    return kind === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const detail = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    const issue: PolicyIssue = {
      ruleId: null,
      ruleIndex: null,
      path: '',
      message: `not valid ${kind.toUpperCase()}: ${detail}`,
    };
    throw policyInvalidError(null, [issue], error);
  }
}

/**
 * Loads a policy from YAML or JSON text and compiles it; throws POLICY_INVALID naming the faulty rule.
 * @example const compiled = loadPolicy(DEFAULT_POLICY_YAML)
 */
export function loadPolicy(
  text: string,
  format?: PolicyFormat,
  options: CompilePolicyOptions = {},
): CompiledPolicy {
  return compilePolicy(parsePolicyText(text, format), options);
}

/** A stand-in for a policy that failed to load: it has no rules and gates every request, naming why. */
export function createFailClosedPolicy(reason: string, name = 'unavailable'): CompiledPolicy {
  const policy: Policy = { name, defaultAction: 'gate', rules: [] };
  const { rules, index } = indexRules(policy, new Map());
  const conditions = createConditionEnvironment();
  return { name, policy, defaultAction: 'gate', rules, index, conditions, failure: reason };
}
