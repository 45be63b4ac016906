import type { ChangeFacts, FileChange, Finding } from 'gatehouse-hitl-analysis';
import {
  destructiveContextOfChange,
  evaluateTrigger,
  TRIGGER_LIMITS,
  type TriggerEvaluation,
} from 'gatehouse-hitl-core';
import { sha256Hex } from '../../auth/secrets.js';

/** A finding with the key that names it across analyses of one run. */
export type KeyedFinding = Finding & { key: string };

/** pattern + file + name (or line): stable while the agent edits around it. */
export function findingKey(finding: Pick<Finding, 'pattern' | 'file' | 'name' | 'line'>): string {
  return `${finding.pattern}|${finding.file}|${finding.name ?? finding.line ?? ''}`;
}

export function keyed(findings: readonly Finding[]): KeyedFinding[] {
  return findings.map((finding) => ({ ...finding, key: findingKey(finding) }));
}

/** What the change left in a file: the same text twice means the agent repeated its fix. */
export function fingerprintOf(files: readonly FileChange[], path: string): string {
  const file = files.find((candidate) => candidate.path === path);
  return sha256Hex(file?.after ?? '');
}

/** Core's destructive-action rules over the change's facts. */
export function destructiveEvaluation(facts: ChangeFacts): TriggerEvaluation {
  return evaluateTrigger('destructive_action', destructiveContextOfChange(facts));
}

/** Below core's detection threshold (0.7), a person decides whether the finding is real. */
export function isLowConfidence(finding: Finding): boolean {
  return finding.confidence < TRIGGER_LIMITS.minDetectionConfidence;
}

/** Laziness findings sure enough to hold the agent to a recovery. */
export function recoverable(finding: Finding): boolean {
  return finding.kind === 'laziness' && !isLowConfidence(finding);
}

/** The verdict the answer carries, with or without a run. */
export function verdictOf(findings: readonly KeyedFinding[], destructive: TriggerEvaluation) {
  return {
    destructive: {
      triggered: destructive.trigger,
      rules: [...destructive.rules],
      reasons: [...destructive.reasons],
      autoApproved: destructive.autoApproved ?? null,
    },
    laziness: findings.filter(recoverable).map((finding) => finding.key),
    lowConfidence: findings.filter(isLowConfidence).map((finding) => finding.key),
  };
}
