import type { RecoveryDocument } from 'gatehouse-hitl-protocol';

/** The recovery cycle of seed 001, in order. */
export const RECOVERY_STAGES = ['PAUSE', 'DIAGNOSE', 'ADAPT', 'RETRY', 'ESCALATE'] as const;
export type RecoveryStage = (typeof RECOVERY_STAGES)[number];

/** Where a recovery stands, in the seed's words, with a sentence for people. */
export interface RecoveryView {
  /** The stage it is in; null once resolved. */
  stage: RecoveryStage | null;
  /** "attempt 2 of 3". */
  attemptText: string;
  summary: string;
  /** Why it escalated, from core's trigger rules; empty unless escalated. */
  escalationReasons: string[];
}

const RULE_TEXT: Record<string, string> = {
  max_recovery_attempts: 'the agent used all its attempts',
  low_confidence: 'the diagnosis is unsure (confidence below 0.5)',
  critical_severity: 'the finding is CRITICAL',
  infinite_loop: 'the agent repeated the same fix (loop)',
  non_deterministic_failure: 'a flaky, non-deterministic failure',
};

/** A trigger rule in words; unknown rules show as they are. */
export function escalationReason(rule: string): string {
  return RULE_TEXT[rule] ?? rule.replaceAll('_', ' ');
}

/**
 * The stage of a recovery. The server counts one attempt per analysis that still finds the
 * finding: detected with no attempt counted (a fresh or reset count) the agent is paused to
 * diagnose; counted attempts under the limit mean the agent adapts its fix and retries;
 * escalated waits on a person.
 */
export function recoveryView(recovery: RecoveryDocument): RecoveryView {
  const attemptText = `attempt ${recovery.attempts} of ${recovery.maxAttempts}`;
  switch (recovery.status) {
    case 'resolved':
      return {
        stage: null,
        attemptText,
        summary: `Resolved after ${recovery.history.length} ${recovery.history.length === 1 ? 'attempt' : 'attempts'}: a later change no longer has the finding.`,
        escalationReasons: [],
      };
    case 'escalated':
      return {
        stage: 'ESCALATE',
        attemptText,
        summary: 'Escalated: a person decides on the recovery escalation gate.',
        escalationReasons: recovery.escalatedBy.map(escalationReason),
      };
    case 'recovering':
      if (recovery.attempts === 0) {
        return {
          stage: 'DIAGNOSE',
          attemptText,
          summary: 'Attempts reset by a person: the agent diagnoses the finding again.',
          escalationReasons: [],
        };
      }
      return {
        stage: 'RETRY',
        attemptText,
        summary: `The finding is still there: the agent adapts its fix and retries (${attemptText}).`,
        escalationReasons: [],
      };
  }
}

/** Whether a stage comes before the current one (drawn as passed). */
export function isStagePassed(stage: RecoveryStage, current: RecoveryStage | null): boolean {
  if (current === null) return true;
  return RECOVERY_STAGES.indexOf(stage) < RECOVERY_STAGES.indexOf(current);
}
