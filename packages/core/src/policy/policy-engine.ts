import { ALWAYS_GATED_LABELS, type AlwaysGatedCategory } from '../destructive/destructive.js';
import {
  alwaysGatedCategoriesOf,
  type ConditionContext,
  type ConditionEnvironment,
  createConditionContext,
} from './policy-cel.js';
import {
  type CompiledRule,
  matchesKeys,
  type PolicyIndex,
  RESTRICTIVENESS,
  visitCandidates,
} from './policy-index.js';
import {
  defaultEventOf,
  POLICY_EVENT_GATE_TYPES,
  type Policy,
  type PolicyAction,
  type PolicyEvent,
  type PolicyGateSettings,
  type PolicyRequest,
} from './policy-schema.js';

/** A policy whose conditions are compiled and whose rules are indexed, ready to decide many requests. */
export interface CompiledPolicy {
  readonly name: string;
  readonly policy: Policy;
  readonly defaultAction: 'gate' | 'deny';
  /** Every rule in document order, disabled ones included. */
  readonly rules: readonly CompiledRule[];
  readonly index: PolicyIndex;
  readonly conditions: ConditionEnvironment;
  /** Why this stand-in policy gates everything: the real one failed to load; null otherwise. */
  readonly failure: string | null;
}

/** A condition that threw while a request was evaluated; its rule counted as a gate. */
export interface PolicyConditionError {
  ruleId: string;
  message: string;
}

/** Gate settings of a decision; the gate type is always filled in. */
export type PolicyDecisionGate = PolicyGateSettings & { type: string };

/** What the policy decided for one request, and which rule decided it and why. */
export interface PolicyDecision {
  action: PolicyAction;
  /** The rule that decided; null when none matched and the policy default applied. */
  ruleId: string | null;
  reason: string;
  /** How to set up the gate, when the action is `gate`. */
  gate?: PolicyDecisionGate;
  /** Rules found to match, in evaluation order; the indexed evaluator stops once the winner is certain. */
  matched: string[];
  evaluatedConditions: number;
  errors: PolicyConditionError[];
  /** Set when an allowing rule was overruled because the action is always gated. */
  alwaysGated?: AlwaysGatedCategory[];
}

interface Match {
  rule: CompiledRule;
  action: PolicyAction;
  restrictiveness: number;
  error: string | null;
}

interface Evaluation {
  compiled: CompiledPolicy;
  context: ConditionContext;
  winner: Match | null;
  matched: string[];
  evaluatedConditions: number;
  errors: PolicyConditionError[];
}

/** True when `a` wins over `b`: priority, then effective restrictiveness, then evaluation order. */
function beats(a: Match, b: Match): boolean {
  if (a.rule.priority !== b.rule.priority) return a.rule.priority > b.rule.priority;
  if (a.restrictiveness !== b.restrictiveness) return a.restrictiveness > b.restrictiveness;
  return a.rule.rank < b.rule.rank;
}

function startEvaluation(compiled: CompiledPolicy, request: PolicyRequest): Evaluation {
  const context = createConditionContext(request);
  return { compiled, context, winner: null, matched: [], evaluatedConditions: 0, errors: [] };
}

function consider(ev: Evaluation, rule: CompiledRule): void {
  if (!matchesKeys(rule, ev.context.request)) return;
  let match: Match = { rule, action: rule.action, restrictiveness: rule.restrictiveness, error: null };
  if (rule.condition !== null) {
    ev.evaluatedConditions += 1;
    try {
      if (!ev.compiled.conditions.run(rule.condition, ev.context)) return;
    } catch (error) {
      const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      ev.errors.push({ ruleId: rule.id, message });
      match = { rule, action: 'gate', restrictiveness: RESTRICTIVENESS.gate, error: message };
    }
  }
  ev.matched.push(rule.id);
  if (ev.winner === null || beats(match, ev.winner)) ev.winner = match;
}

/**
 * Decides a request: the highest-priority matching rule wins, at equal priority deny > gate > allow;
 * an always-gated action is never allowed and a condition that throws counts as a gate.
 * @example evaluatePolicy(compilePolicy(DEFAULT_POLICY), { event: 'tool_call', tool: 'read_file', args: {}, agent: { id: 'a1' } })
 */
export function evaluatePolicy(compiled: CompiledPolicy, request: PolicyRequest): PolicyDecision {
  const ev = startEvaluation(compiled, request);
  visitCandidates(compiled.index, request, (rule) => {
    const winner = ev.winner;
    if (winner !== null) {
      if (rule.priority < winner.rule.priority) return false;
      // Same priority, later in order: it can only win by being strictly more restrictive.
      if (rule.maxRestrictiveness <= winner.restrictiveness) return true;
    }
    consider(ev, rule);
    return true;
  });
  return decide(ev);
}

/** Decides a request by checking every enabled rule in document order, without index or early stop. */
export function evaluatePolicyNaive(compiled: CompiledPolicy, request: PolicyRequest): PolicyDecision {
  const ev = startEvaluation(compiled, request);
  for (const rule of compiled.rules) if (rule.rule.enabled) consider(ev, rule);
  return decide(ev);
}

function defaultGateType(request: PolicyRequest): string {
  if (request.gateType !== undefined) return request.gateType;
  if (Object.hasOwn(POLICY_EVENT_GATE_TYPES, request.event))
    return POLICY_EVENT_GATE_TYPES[request.event as PolicyEvent];
  return defaultEventOf(request);
}

function gateOf(rule: CompiledRule | null, request: PolicyRequest): PolicyDecisionGate {
  const settings = rule !== null && typeof rule.rule.action === 'object' ? rule.rule.action.gate : {};
  return { ...settings, type: settings.type ?? defaultGateType(request) };
}

// One object shape for every decision keeps the hot path monomorphic.
function decision(
  ev: Evaluation,
  action: PolicyAction,
  ruleId: string | null,
  reason: string,
): PolicyDecision {
  return {
    action,
    ruleId,
    reason,
    matched: ev.matched,
    evaluatedConditions: ev.evaluatedConditions,
    errors: ev.errors,
  };
}

function decide(ev: Evaluation): PolicyDecision {
  const { winner } = ev;
  const request = ev.context.request;
  if (winner === null) return defaultDecision(ev);
  const { rule } = winner;
  if (winner.error !== null) {
    const reason = `condition of rule "${rule.id}" could not be evaluated (${winner.error}); gating to be safe`;
    const result = decision(ev, 'gate', rule.id, reason);
    result.gate = gateOf(rule, request);
    return result;
  }
  if (winner.action === 'allow') {
    const categories = alwaysGatedCategoriesOf(ev.context);
    if (categories.length > 0) return alwaysGatedDecision(ev, rule, categories);
  }
  const result = decision(ev, winner.action, rule.id, rule.rule.reason);
  if (winner.action === 'gate') result.gate = gateOf(rule, request);
  return result;
}

function alwaysGatedDecision(
  ev: Evaluation,
  rule: CompiledRule,
  categories: AlwaysGatedCategory[],
): PolicyDecision {
  const request = ev.context.request;
  const labels = categories.map((c) => `${ALWAYS_GATED_LABELS[c]} (${c})`).join(', ');
  const result = decision(
    ev,
    'gate',
    rule.id,
    `rule "${rule.id}" would allow this, but it is always gated: ${labels}`,
  );
  result.gate = {
    type: defaultEventOf(request),
    risk: request.risk === 'critical' ? 'critical' : 'high',
  };
  result.alwaysGated = [...categories];
  return result;
}

const defaultReasons = new WeakMap<CompiledPolicy, string>();

function defaultReason(compiled: CompiledPolicy): string {
  let reason = defaultReasons.get(compiled);
  if (reason !== undefined) return reason;
  if (compiled.failure !== null) {
    reason = `policy "${compiled.name}" failed to load (${compiled.failure}); every request needs approval`;
  } else if (compiled.index.ordered.length === 0) {
    reason = `policy "${compiled.name}" has no enabled rules; every request needs approval`;
  } else {
    const verb = compiled.defaultAction === 'deny' ? 'deny' : 'ask a person';
    reason = `no rule of policy "${compiled.name}" matched; the policy default is to ${verb}`;
  }
  defaultReasons.set(compiled, reason);
  return reason;
}

function defaultDecision(ev: Evaluation): PolicyDecision {
  const { compiled } = ev;
  if (compiled.defaultAction === 'deny' && compiled.failure === null) {
    return decision(ev, 'deny', null, defaultReason(compiled));
  }
  const result = decision(ev, 'gate', null, defaultReason(compiled));
  result.gate = gateOf(null, ev.context.request);
  return result;
}
