import {
  evaluateTrigger,
  isTriggerGateType,
  recordRecoveryAttempt,
  recoveryFactsOf,
  triggerVerdict,
  type Verdict,
  withoutSelfJudgement,
} from 'gatehouse-hitl-core';
import type { RunsRepo, TxClock } from 'gatehouse-hitl-store';
import { changeRun, type RunDocument } from '../runs/run-records.js';

/** A verdict after seed 001's trigger rules, and the context its gate opens with. */
export interface TriggeredVerdict {
  verdict: Verdict;
  context: Record<string, unknown> | undefined;
}

async function countRecovery(
  tx: RunsRepo & TxClock,
  run: RunDocument | null,
  verdict: Extract<Verdict, { outcome: 'gated' }>,
  context: Record<string, unknown>,
): Promise<TriggeredVerdict> {
  const facts = recoveryFactsOf(context);
  const recorded = recordRecoveryAttempt(run?.recovery ?? null, facts);
  if (run !== null) await changeRun(tx, run.id, (current) => ({ ...current, recovery: recorded.state }));
  const attempts = recorded.state.attempts;
  const described = `recovery attempt ${attempts} (confidence ${facts.confidence}, severity ${facts.severity})`;
  return {
    verdict: triggerVerdict(verdict, recorded.evaluation, described),
    context: {
      ...withoutSelfJudgement(context),
      recoveryAttempts: attempts,
      infiniteLoopDetected: recorded.loop,
      nonDeterministicFailure: recorded.flaky,
      triggerRules: recorded.evaluation.rules,
    },
  };
}

/**
 * Applies seed 001's trigger rules to a request the policy gates as a recovery escalation,
 * destructive action or false positive. The server counts recovery attempts per run and spots
 * loops and flaky failures itself; the agent's own conclusions are dropped.
 */
export async function applyTriggerRules(
  tx: RunsRepo & TxClock,
  run: RunDocument | null,
  verdict: Verdict,
  sent: Record<string, unknown> | undefined,
): Promise<TriggeredVerdict> {
  if (verdict.outcome !== 'gated' || !isTriggerGateType(verdict.gate.type)) return { verdict, context: sent };
  const context = sent ?? {};
  if (verdict.gate.type === 'recovery_escalation') return countRecovery(tx, run, verdict, context);
  const evaluation = evaluateTrigger(verdict.gate.type, context);
  const described = `the reported change (${verdict.gate.type.replace(/_/g, ' ')})`;
  return {
    verdict: triggerVerdict(verdict, evaluation, described),
    context: { ...context, triggerRules: evaluation.rules },
  };
}

/** A `retry` decision on a recovery escalation gives the run's agent a fresh count. */
export async function resetRecovery(tx: RunsRepo & TxClock, runId: string | null): Promise<void> {
  if (runId === null) return;
  await changeRun(tx, runId, (run) => (run.recovery == null ? null : { ...run, recovery: null }));
}
