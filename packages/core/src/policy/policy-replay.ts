import type { CompiledCondition, ConditionEnvironment } from './policy-cel.js';
import { type CompiledPolicy, evaluatePolicy } from './policy-engine.js';
import type { PolicyRequest } from './policy-schema.js';

/** What one rule's condition gave for one request: a bool, or the message of the error it threw. */
export type ConditionOutcome = { ok: true; value: boolean } | { ok: false; message: string };

/** Condition outcomes of one evaluation, as `[rule index, outcome]` pairs that survive structured clone. */
export type ConditionOutcomes = [ruleIndex: number, outcome: ConditionOutcome][];

function ruleIndexes(compiled: CompiledPolicy): Map<CompiledCondition, number> {
  const indexes = new Map<CompiledCondition, number>();
  for (const rule of compiled.rules) if (rule.condition !== null) indexes.set(rule.condition, rule.index);
  return indexes;
}

function withConditions(compiled: CompiledPolicy, conditions: ConditionEnvironment): CompiledPolicy {
  return { ...compiled, conditions };
}

/**
 * Evaluates a request and records every condition it ran; `onCondition` hears of each one before it
 * runs, so a caller that has to stop a slow evaluation knows which rule was running.
 */
export function recordConditionOutcomes(
  compiled: CompiledPolicy,
  request: PolicyRequest,
  onCondition: (ruleIndex: number) => void = () => {},
): ConditionOutcomes {
  const indexes = ruleIndexes(compiled);
  const outcomes: ConditionOutcomes = [];
  const inner = compiled.conditions;
  const recording = withConditions(compiled, {
    compile: inner.compile,
    run(condition, context) {
      const index = indexes.get(condition) ?? -1;
      onCondition(index);
      try {
        const value = inner.run(condition, context);
        outcomes.push([index, { ok: true, value }]);
        return value;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcomes.push([index, { ok: false, message }]);
        throw error;
      }
    },
  });
  evaluatePolicy(recording, request);
  return outcomes;
}

/**
 * The same policy with its conditions answered from `outcomes` instead of run, so a request evaluated
 * elsewhere under a budget is decided here without running CEL again; a condition with no recorded
 * outcome fails, which gates.
 */
export function replayConditionOutcomes(
  compiled: CompiledPolicy,
  outcomes: ConditionOutcomes,
): CompiledPolicy {
  const indexes = ruleIndexes(compiled);
  const byIndex = new Map(outcomes);
  return withConditions(compiled, {
    compile: compiled.conditions.compile,
    run(condition) {
      const outcome = byIndex.get(indexes.get(condition) ?? -1);
      if (outcome === undefined) throw new Error('condition was not evaluated within the budget');
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.value;
    },
  });
}
