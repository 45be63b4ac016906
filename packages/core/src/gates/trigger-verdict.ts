import { invalidField } from '../invalid-field.js';
import {
  evaluateTrigger,
  TRIGGER_GATE_TYPES,
  type TriggerEvaluation,
  type TriggerGateType,
} from './escalation.js';
import type { GatedVerdict, Verdict } from './request-verdict.js';

/** A failed attempt's outcome as the agent's test run saw it. */
export type AttemptOutcome = 'pass' | 'fail';

/** What the server remembers of a run's recovery, so the agent cannot reset or skip it by what it says. */
export interface RecoveryState {
  attempts: number;
  /** Error signatures of recent attempts, oldest first. */
  signatures: string[];
  /** Test outcomes of recent attempts, oldest first. */
  outcomes: AttemptOutcome[];
}

/** The facts an agent reports with one recovery attempt. */
export interface RecoveryFacts {
  errorSignature: string | null;
  severity: string;
  confidence: number;
  outcome: AttemptOutcome | null;
}

const HISTORY = 10;
// Agents report facts; these conclusions are the server's to draw.
const SELF_JUDGED = [
  'recoveryAttempts',
  'recovery_attempts',
  'infiniteLoopDetected',
  'infinite_loop_detected',
  'nonDeterministicFailure',
  'non_deterministic_failure',
];

/** True for the gate types whose opening seed 001's trigger rules decide. */
export function isTriggerGateType(type: string): type is TriggerGateType {
  return (TRIGGER_GATE_TYPES as readonly string[]).includes(type);
}

function text(context: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = context[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.length > 500) {
      throw invalidField(name, 'must be text of at most 500 characters');
    }
    return value;
  }
  return null;
}

/** The recovery facts in an agent's context (camelCase or snake_case keys). */
export function recoveryFactsOf(context: Record<string, unknown>): RecoveryFacts {
  const outcome = text(context, 'outcome', 'testOutcome', 'test_outcome');
  if (outcome !== null && outcome !== 'pass' && outcome !== 'fail') {
    throw invalidField('outcome', `must be "pass" or "fail" (got ${JSON.stringify(outcome)})`);
  }
  const confidence = context.confidence ?? 1;
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
    throw invalidField('confidence', `must be a number from 0 to 1 (got ${JSON.stringify(confidence)})`);
  }
  return {
    errorSignature: text(context, 'errorSignature', 'error_signature'),
    severity: text(context, 'severity') ?? 'LOW',
    confidence,
    outcome,
  };
}

/** Alternating pass and fail over the last attempts: the failure is flaky, not fixed or broken. */
function alternates(outcomes: readonly AttemptOutcome[]): boolean {
  const recent = outcomes.slice(-3);
  return recent.length === 3 && recent[0] === recent[2] && recent[0] !== recent[1];
}

/**
 * Counts one more recovery attempt and runs seed 001's recovery rules on the server's own count,
 * loop detection (the same error signature twice in a row) and flaky detection (pass/fail alternating).
 */
export function recordRecoveryAttempt(
  state: RecoveryState | null,
  facts: RecoveryFacts,
): { state: RecoveryState; evaluation: TriggerEvaluation; loop: boolean; flaky: boolean } {
  const previous = state ?? { attempts: 0, signatures: [], outcomes: [] };
  const last = previous.signatures.at(-1);
  const loop = facts.errorSignature !== null && last === facts.errorSignature;
  const outcomes = facts.outcome === null ? previous.outcomes : [...previous.outcomes, facts.outcome];
  const flaky = alternates(outcomes);
  const next: RecoveryState = {
    attempts: previous.attempts + 1,
    signatures:
      facts.errorSignature === null
        ? previous.signatures
        : [...previous.signatures, facts.errorSignature].slice(-HISTORY),
    outcomes: outcomes.slice(-HISTORY),
  };
  const evaluation = evaluateTrigger('recovery_escalation', {
    recoveryAttempts: next.attempts,
    confidence: facts.confidence,
    severity: facts.severity,
    infiniteLoopDetected: loop,
    nonDeterministicFailure: flaky,
  });
  return { state: next, evaluation, loop, flaky };
}

/** The agent's context without the conclusions only the server may draw. */
export function withoutSelfJudgement(context: Record<string, unknown>): Record<string, unknown> {
  const facts = { ...context };
  for (const name of SELF_JUDGED) delete facts[name];
  return facts;
}

/** A gated verdict as the trigger rules leave it: still gated when one fired, else allowed and why. */
export function triggerVerdict(verdict: GatedVerdict, evaluation: TriggerEvaluation, facts: string): Verdict {
  if (evaluation.trigger) {
    return { ...verdict, reason: `${verdict.reason} (${evaluation.reasons.join('; ')})` };
  }
  const why =
    evaluation.autoApproved === undefined
      ? `no gate needed: ${facts} matched none of the ${verdict.gate.type} trigger rules`
      : `no gate needed: the auto-approve condition ${evaluation.autoApproved} holds (${facts})`;
  return { outcome: 'allowed', ruleId: verdict.ruleId, reason: why, via: 'trigger_rules' };
}
