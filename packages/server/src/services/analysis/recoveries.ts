import { recordRecoveryAttempt, TRIGGER_LIMITS, type TriggerEvaluation } from 'gatehouse-hitl-core';
import type { RecoveryRecord } from 'gatehouse-hitl-store';
import type { KeyedFinding } from './findings.js';

/** Older attempts beyond this are dropped from a recovery's history. */
const HISTORY = 20;

/** A recovery after one more analysis, and whether core's recovery rules now escalate it. */
export interface RecoveryStep {
  next: RecoveryRecord;
  /** Set when this attempt escalates (and no escalation is open yet). */
  escalation: TriggerEvaluation | null;
  loop: boolean;
}

function fresh(finding: KeyedFinding, runId: string, now: number): RecoveryRecord {
  return {
    runId,
    key: finding.key,
    pattern: finding.pattern,
    file: finding.file,
    name: finding.name,
    line: finding.line,
    severity: finding.severity,
    status: 'recovering',
    attempts: 0,
    signatures: [],
    history: [],
    gateId: null,
    escalatedBy: [],
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The finding is still there: one more attempt. Core counts it, spots a repeated fix (the same file
 * text as the last attempt) and applies the recovery rules (3 attempts, CRITICAL, loop). An
 * escalated recovery keeps its count until a person answers its gate.
 */
export function advanceRecovery(
  current: RecoveryRecord | null,
  finding: KeyedFinding,
  facts: { runId: string; fingerprint: string; now: number },
): RecoveryStep {
  const base =
    current === null || current.status === 'resolved'
      ? { ...fresh(finding, facts.runId, facts.now), history: current?.history ?? [] }
      : current;
  const touched = { ...base, line: finding.line, severity: finding.severity, updatedAt: facts.now };
  if (base.status === 'escalated') {
    const history = [...base.history, attemptOf(base.attempts, finding, facts)].slice(-HISTORY);
    return { next: { ...touched, history }, escalation: null, loop: false };
  }
  const recorded = recordRecoveryAttempt(
    { attempts: base.attempts, signatures: base.signatures, outcomes: [] },
    {
      errorSignature: facts.fingerprint,
      severity: finding.severity.toUpperCase(),
      confidence: 1,
      outcome: null,
    },
  );
  const attempts = recorded.state.attempts;
  const history = [...base.history, attemptOf(attempts, finding, facts)].slice(-HISTORY);
  const escalated = recorded.evaluation.trigger;
  return {
    next: {
      ...touched,
      attempts,
      signatures: recorded.state.signatures,
      history,
      status: escalated ? 'escalated' : 'recovering',
      escalatedBy: escalated ? recorded.evaluation.rules : [],
    },
    escalation: escalated ? recorded.evaluation : null,
    loop: recorded.loop,
  };
}

function attemptOf(attempt: number, finding: KeyedFinding, facts: { fingerprint: string; now: number }) {
  return {
    attempt,
    at: facts.now,
    fingerprint: facts.fingerprint,
    line: finding.line,
    message: finding.message,
  };
}

/** The finding is gone from a file the agent changed again: the recovery succeeded. */
export function resolveRecovery(current: RecoveryRecord, now: number): RecoveryRecord {
  return { ...current, status: 'resolved', updatedAt: now };
}

/** A `retry` decision gives the agent a fresh count on this finding. */
export function resetRecoveryAttempts(current: RecoveryRecord, now: number): RecoveryRecord {
  return {
    ...current,
    status: 'recovering',
    attempts: 0,
    signatures: [],
    escalatedBy: [],
    gateId: null,
    updatedAt: now,
  };
}

/** The recovery as the API shows it. */
export function recoveryDocument(record: RecoveryRecord) {
  const { runId: _runId, signatures: _signatures, ...shown } = record;
  return { ...shown, maxAttempts: TRIGGER_LIMITS.maxRecoveryAttempts };
}
