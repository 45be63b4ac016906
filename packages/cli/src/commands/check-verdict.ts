import type { AnalysisResult, ChangeFacts, Finding, Severity } from 'gatehouse-hitl-analysis';
import { type DestructiveActionInput, evaluateTrigger } from 'gatehouse-hitl-core';

/** pass: nothing to stop; gate: the server would open a destructive-action gate; fail: findings at or above --fail-on. */
export type CheckVerdict = 'pass' | 'gate' | 'fail';

export const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

/** What `gatehouse check --json` prints. */
export interface CheckReport {
  verdict: CheckVerdict;
  findings: Finding[];
  facts: ChangeFacts;
  destructive: { triggered: boolean; reasons: string[]; autoApproved: string | null };
}

/**
 * The analysis facts as seed 001's destructive-action context. A change without coverage reports
 * counts as coverage maintained: nothing says it dropped.
 */
export function destructiveContext(facts: ChangeFacts): DestructiveActionInput {
  const actionType =
    facts.testsRemoved > 0 ? 'test_deletion' : facts.featuresRemoved > 0 ? 'feature_removal' : undefined;
  return {
    ...(actionType === undefined ? {} : { actionType }),
    testsRemoved: facts.testsRemoved,
    replacementTests: facts.replacementTests,
    coverageDelta: facts.coverageDelta ?? 0,
    coverageMaintained: facts.coverageDelta === null || facts.coverageDelta >= 0,
    featuresRemoved: facts.featuresRemoved,
    assertionsWeakened: facts.assertionsWeakened,
    skipPatternsAdded: facts.skipPatternsAdded,
  };
}

/** Findings at or above `failOn`, which fail the check whatever the gate rules say. */
export function blockingFindings(findings: readonly Finding[], failOn: Severity): Finding[] {
  const floor = SEVERITIES.indexOf(failOn);
  return findings.filter((finding) => SEVERITIES.indexOf(finding.severity) >= floor);
}

/** Decides like the server: core's destructive-action rules first, then the --fail-on threshold. */
export function decideCheck(result: AnalysisResult, failOn: Severity): CheckReport {
  const evaluation = evaluateTrigger('destructive_action', destructiveContext(result.facts));
  const verdict: CheckVerdict = evaluation.trigger
    ? 'gate'
    : blockingFindings(result.findings, failOn).length > 0
      ? 'fail'
      : 'pass';
  return {
    verdict,
    findings: result.findings,
    facts: result.facts,
    destructive: {
      triggered: evaluation.trigger,
      reasons: evaluation.reasons,
      autoApproved: evaluation.autoApproved ?? null,
    },
  };
}
