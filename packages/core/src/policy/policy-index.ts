import type { CompiledCondition } from './policy-cel.js';
import type { PolicyAction, PolicyRequest, PolicyRule } from './policy-schema.js';

/** How restrictive an action is: deny > gate > allow. */
export const RESTRICTIVENESS: Readonly<Record<PolicyAction, number>> = { allow: 0, gate: 1, deny: 2 };

/** A rule ready for evaluation: its condition compiled and its match keys as sets. */
export interface CompiledRule {
  readonly rule: PolicyRule;
  readonly id: string;
  /** Position in the document's `rules`. */
  readonly index: number;
  /** Position in evaluation order: priority desc, restrictiveness desc, document order. */
  readonly rank: number;
  readonly priority: number;
  readonly action: PolicyAction;
  readonly restrictiveness: number;
  /** The most restrictive outcome this rule can have; a failing condition counts as a gate. */
  readonly maxRestrictiveness: number;
  readonly condition: CompiledCondition | null;
  readonly tools: ReadonlySet<string> | null;
  readonly events: ReadonlySet<string> | null;
  readonly gateTypes: ReadonlySet<string> | null;
}

/** Enabled rules filed by their match keys; each rule sits under one dimension only. */
export interface PolicyIndex {
  readonly byTool: ReadonlyMap<string, readonly CompiledRule[]>;
  readonly byGateType: ReadonlyMap<string, readonly CompiledRule[]>;
  readonly byEvent: ReadonlyMap<string, readonly CompiledRule[]>;
  /** Rules without match keys: candidates for every request. */
  readonly wildcard: readonly CompiledRule[];
  /** Every enabled rule in evaluation order. */
  readonly ordered: readonly CompiledRule[];
}

/** The action a rule declares, flattened to allow, deny or gate. */
export function actionKind(rule: PolicyRule): PolicyAction {
  return typeof rule.action === 'string' ? rule.action : 'gate';
}

/** Evaluation order: higher priority first, then the more restrictive action, then document order. */
export function compareRules(a: CompiledRule, b: CompiledRule): number {
  return b.priority - a.priority || b.restrictiveness - a.restrictiveness || a.index - b.index;
}

/** Builds a compiled rule; `rank` is filled in when the index is built. */
export function compileRule(
  rule: PolicyRule,
  index: number,
  condition: CompiledCondition | null,
): CompiledRule {
  const action = actionKind(rule);
  const restrictiveness = RESTRICTIVENESS[action];
  const toSet = (keys: string[] | undefined) => (keys === undefined ? null : new Set(keys));
  return {
    rule,
    id: rule.id,
    index,
    rank: -1,
    priority: rule.priority,
    action,
    restrictiveness,
    maxRestrictiveness:
      condition === null ? restrictiveness : Math.max(restrictiveness, RESTRICTIVENESS.gate),
    condition,
    tools: toSet(rule.match?.tools),
    events: toSet(rule.match?.events),
    gateTypes: toSet(rule.match?.gateTypes),
  };
}

/** True when the request fits every match key the rule gives. */
export function matchesKeys(rule: CompiledRule, request: PolicyRequest): boolean {
  if (rule.tools !== null && (request.tool === undefined || !rule.tools.has(request.tool))) return false;
  if (rule.events !== null && !rule.events.has(request.event)) return false;
  if (rule.gateTypes !== null && (request.gateType === undefined || !rule.gateTypes.has(request.gateType))) {
    return false;
  }
  return true;
}

function file(map: Map<string, CompiledRule[]>, keys: ReadonlySet<string>, rule: CompiledRule): void {
  for (const key of keys) {
    const bucket = map.get(key);
    if (bucket === undefined) map.set(key, [rule]);
    else bucket.push(rule);
  }
}

/** Files the enabled rules by tool, else gate type, else event, else as wildcard; buckets keep evaluation order. */
export function buildPolicyIndex(rules: readonly CompiledRule[]): PolicyIndex {
  const ordered = rules
    .filter((r) => r.rule.enabled)
    .sort(compareRules)
    .map((r, rank) => ({ ...r, rank }));
  const byTool = new Map<string, CompiledRule[]>();
  const byGateType = new Map<string, CompiledRule[]>();
  const byEvent = new Map<string, CompiledRule[]>();
  const wildcard: CompiledRule[] = [];
  for (const rule of ordered) {
    // The most selective dimension keeps buckets short; the others are checked at evaluation.
    if (rule.tools !== null) file(byTool, rule.tools, rule);
    else if (rule.gateTypes !== null) file(byGateType, rule.gateTypes, rule);
    else if (rule.events !== null) file(byEvent, rule.events, rule);
    else wildcard.push(rule);
  }
  return { byTool, byGateType, byEvent, wildcard, ordered };
}

function keyLists(index: PolicyIndex, request: PolicyRequest): (readonly CompiledRule[])[] {
  const lists: (readonly CompiledRule[])[] = [];
  const add = (list: readonly CompiledRule[] | undefined) => {
    if (list !== undefined && list.length > 0) lists.push(list);
  };
  if (request.tool !== undefined) add(index.byTool.get(request.tool));
  if (request.gateType !== undefined) add(index.byGateType.get(request.gateType));
  add(index.byEvent.get(request.event));
  add(index.wildcard);
  return lists;
}

/**
 * Visits the rules that may apply to a request in evaluation order, each at most once, until `visit` returns false.
 * The buckets are merged lazily, so stopping early skips the rest of the merge too.
 */
export function visitCandidates(
  index: PolicyIndex,
  request: PolicyRequest,
  visit: (rule: CompiledRule) => boolean,
): void {
  const lists = keyLists(index, request);
  if (lists.length === 1) {
    for (const rule of lists[0]!) if (!visit(rule)) return;
    return;
  }
  const heads = lists.map(() => 0);
  for (;;) {
    let best = -1;
    let bestRank = Number.POSITIVE_INFINITY;
    for (let i = 0; i < lists.length; i++) {
      const rule = lists[i]![heads[i]!];
      if (rule !== undefined && rule.rank < bestRank) {
        best = i;
        bestRank = rule.rank;
      }
    }
    if (best < 0 || !visit(lists[best]![heads[best]!]!)) return;
    heads[best] = heads[best]! + 1;
  }
}

/** The rules that may apply to a request, in evaluation order; a rule appears at most once. */
export function candidatesFor(index: PolicyIndex, request: PolicyRequest): CompiledRule[] {
  const all: CompiledRule[] = [];
  visitCandidates(index, request, (rule) => all.push(rule) > 0);
  return all;
}
