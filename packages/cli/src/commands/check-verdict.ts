import type { AnalysisResult, ChangeFacts, Finding, Severity } from 'gatehouse-hitl-analysis';
import { destructiveContextOfChange, evaluateTrigger } from 'gatehouse-hitl-core';

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

/** Findings at or above `failOn`, which fail the check whatever the gate rules say. */
export function blockingFindings(findings: readonly Finding[], failOn: Severity): Finding[] {
  const floor = SEVERITIES.indexOf(failOn);
  return findings.filter((finding) => SEVERITIES.indexOf(finding.severity) >= floor);
}

/** Decides like the server: core's destructive-action rules first, then the --fail-on threshold. */
export function decideCheck(result: AnalysisResult, failOn: Severity): CheckReport {
  const evaluation = evaluateTrigger('destructive_action', destructiveContextOfChange(result.facts));
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
