import {
  evaluateTrigger,
  recordRecoveryAttempt,
  TRIGGER_LIMITS,
  type TriggerEvaluation,
} from 'gatehouse-hitl-core';
import type { RecoveryRecord } from 'gatehouse-hitl-store';
import type { KeyedFinding } from './findings.js';

/** Older attempts beyond this are dropped from a recovery's history. */
const HISTORY = 20;
/** Observations and reported test results kept per recovery: enough to see an alternation. */
const TRAIL = 6;

type Observation = NonNullable<RecoveryRecord['observations']>[number];
type TestOutcome = 'pass' | 'fail';
/** Tests whose results one recovery keeps. */
const TESTS_KEPT = 50;

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
  const observations = observe(current, true, facts);
  const touched = {
    ...base,
    line: finding.line,
    severity: finding.severity,
    observations,
    updatedAt: facts.now,
  };
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
  const evaluation = isFlakyReappearance(observations)
    ? flakyEvaluation({ attempts, severity: finding.severity, loop: recorded.loop })
    : recorded.evaluation;
  const escalated = evaluation.trigger;
  return {
    next: {
      ...touched,
      attempts,
      signatures: recorded.state.signatures,
      history,
      status: escalated ? 'escalated' : 'recovering',
      escalatedBy: escalated ? evaluation.rules : [],
    },
    escalation: escalated ? evaluation : null,
    loop: recorded.loop,
  };
}

function observe(
  current: RecoveryRecord | null,
  present: boolean,
  facts: { fingerprint: string; now: number },
): Observation[] {
  const observation = { present, fingerprint: facts.fingerprint, at: facts.now };
  return [...(current?.observations ?? []), observation].slice(-TRAIL);
}

/**
 * The finding came back with the file exactly as it was when last found, after an analysis that did
 * not find it: nothing about the code changed, yet the failure came and went — a flaky failure.
 */
export function isFlakyReappearance(observations: readonly Observation[]): boolean {
  const [before, between, now] = observations.slice(-3);
  if (before === undefined || between === undefined || now === undefined) return false;
  return before.present && !between.present && now.present && before.fingerprint === now.fingerprint;
}

/** Results of one test alternating over its last three reports, the test unchanged meanwhile. */
export function isFlakyTest(outcomes: readonly TestOutcome[]): boolean {
  const [first, second, third] = outcomes.slice(-3);
  return third !== undefined && first === third && first !== second;
}

/** Core's recovery rules with the server's conclusion that the failure is flaky. */
export function flakyEvaluation(facts: { attempts: number; severity: string; loop: boolean }) {
  return evaluateTrigger('recovery_escalation', {
    recoveryAttempts: facts.attempts,
    confidence: 1,
    severity: facts.severity.toUpperCase(),
    infiniteLoopDetected: facts.loop,
    nonDeterministicFailure: true,
  });
}

/** One result the agent reported, and whether the change touched the test's file. */
export interface TestReport {
  name: string;
  outcome: TestOutcome;
  fileChanged: boolean;
}

/**
 * The agent's results for the finding's tests. A change to a test's file starts its results afresh:
 * only results of the same test text can show a flaky failure. Returns the tests now flaky.
 */
export function recordTestOutcomes(
  current: RecoveryRecord,
  reports: readonly TestReport[],
  now: number,
): { next: RecoveryRecord; flaky: string[] } {
  const kept: Record<string, TestOutcome[]> = { ...(current.testOutcomes ?? {}) };
  const flaky = new Set<string>();
  for (const report of reports) {
    const known = Object.hasOwn(kept, report.name);
    if (!known && Object.keys(kept).length >= TESTS_KEPT) continue;
    const earlier = known && !report.fileChanged ? (kept[report.name] ?? []) : [];
    const outcomes = [...earlier, report.outcome].slice(-TRAIL);
    kept[report.name] = outcomes;
    if (isFlakyTest(outcomes)) flaky.add(report.name);
  }
  return { next: { ...current, testOutcomes: kept, updatedAt: now }, flaky: [...flaky] };
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

/** The finding is gone from a file the agent changed again (now holding `fingerprint`): the recovery succeeded. */
export function resolveRecovery(
  current: RecoveryRecord,
  facts: { fingerprint: string; now: number },
): RecoveryRecord {
  const observations = observe(current, false, facts);
  return { ...current, status: 'resolved', observations, updatedAt: facts.now };
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
    observations: [],
    testOutcomes: {},
    updatedAt: now,
  };
}

/** The recovery as the API shows it. */
export function recoveryDocument(record: RecoveryRecord) {
  const {
    runId: _runId,
    signatures: _signatures,
    observations: _seen,
    testOutcomes: _tests,
    ...shown
  } = record;
  return { ...shown, maxAttempts: TRIGGER_LIMITS.maxRecoveryAttempts };
}
