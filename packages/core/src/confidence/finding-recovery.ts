import { evaluateTrigger, TRIGGER_LIMITS, type TriggerEvaluation } from '../gates/escalation.js';
import { recordRecoveryAttempt } from '../gates/trigger-verdict.js';

/** One analysis of a run in which a finding was still there: an attempt of its recovery. */
export interface RecoveryAttempt {
  /** 1-based; restarts after a `retry` decision. */
  attempt: number;
  at: number;
  /** SHA-256 of what the file held at this attempt: the same fix twice is a loop. */
  fingerprint: string;
  line: number | null;
  message: string;
}

/** One analysis that touched a recovery's file: was the finding there, and what did the file hold. */
export interface RecoveryObservation {
  present: boolean;
  /** SHA-256 of the file after that change. */
  fingerprint: string;
  at: number;
}

/** The recovery of one laziness finding in one run. */
export interface FindingRecovery {
  runId: string;
  /** pattern + file + name (or line): the same finding across analyses. */
  key: string;
  pattern: string;
  file: string;
  name: string | null;
  line: number | null;
  severity: string;
  status: 'recovering' | 'escalated' | 'resolved';
  attempts: number;
  /** Fingerprints of recent attempts, oldest first (the loop detection reads them). */
  signatures: string[];
  history: RecoveryAttempt[];
  /** The recovery_escalation gate, once escalated. */
  gateId: string | null;
  /** Why it escalated: the trigger rule ids. */
  escalatedBy: string[];
  /** What each analysis that touched the file saw, oldest first (the last few). */
  observations?: RecoveryObservation[];
  /** Results the agent reported per test of the finding, each since its file last changed, oldest first. */
  testOutcomes?: Record<string, ('pass' | 'fail')[]>;
  createdAt: number;
  updatedAt: number;
}

/** What a recovery reads of the finding it follows. */
export interface RecoveredFinding {
  key: string;
  pattern: string;
  file: string;
  name: string | null;
  line: number | null;
  severity: string;
  message: string;
}

/** Older attempts beyond this are dropped from a recovery's history. */
const HISTORY = 20;
/** Observations and reported test results kept per recovery: enough to see an alternation. */
const TRAIL = 6;

type Observation = RecoveryObservation;
type TestOutcome = 'pass' | 'fail';
/** Tests whose results one recovery keeps. */
const TESTS_KEPT = 50;

/** A recovery after one more analysis, and whether the recovery rules now escalate it. */
export interface RecoveryStep {
  next: FindingRecovery;
  /** Set when this attempt escalates (and no escalation is open yet). */
  escalation: TriggerEvaluation | null;
  loop: boolean;
}

function fresh(finding: RecoveredFinding, runId: string, now: number): FindingRecovery {
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
 * The finding is still there: one more attempt. It is counted, spots a repeated fix (the same file
 * text as the last attempt) and applies the recovery rules (3 attempts, CRITICAL, loop). An
 * escalated recovery keeps its count until a person answers its gate.
 */
export function advanceRecovery(
  current: FindingRecovery | null,
  finding: RecoveredFinding,
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
  current: FindingRecovery | null,
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

/** The recovery rules with the conclusion that the failure is flaky. */
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
  current: FindingRecovery,
  reports: readonly TestReport[],
  now: number,
): { next: FindingRecovery; flaky: string[] } {
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

function attemptOf(attempt: number, finding: RecoveredFinding, facts: { fingerprint: string; now: number }) {
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
  current: FindingRecovery,
  facts: { fingerprint: string; now: number },
): FindingRecovery {
  const observations = observe(current, false, facts);
  return { ...current, status: 'resolved', observations, updatedAt: facts.now };
}

/** A `retry` decision gives the agent a fresh count on this finding. */
export function resetRecoveryAttempts(current: FindingRecovery, now: number): FindingRecovery {
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
export function recoveryDocument(record: FindingRecovery) {
  const {
    runId: _runId,
    signatures: _signatures,
    observations: _seen,
    testOutcomes: _tests,
    ...shown
  } = record;
  return { ...shown, maxAttempts: TRIGGER_LIMITS.maxRecoveryAttempts };
}
