import { GatehouseError } from '../errors.js';
import {
  type IntentHoldReason,
  intentHoldBlocks,
  intentHoldOf,
  type LatestIntent,
  type RunAct,
} from '../gates/intent-gate.js';
import type { AutonomyLevel, GateStatus, PhaseType, RunStatus } from '../schemas.js';
import { resumeAfterFreeze } from './autonomy.js';

export type { RunAct } from '../gates/intent-gate.js';

/** Why a run may not act: paused by a person, held by its intent gate (Gate 0), frozen for a phase review. */
export type RunHoldReason = 'paused' | IntentHoldReason | 'phase_review';

/** A held run, and the gate that releases it (null for a pause, which a person resumes, or before a plan). */
export interface RunHold {
  reason: RunHoldReason;
  gateId: string | null;
}

/** The gates a run's holds are read from. */
export interface RunHoldFacts {
  status: RunStatus;
  autonomy: AutonomyLevel;
  /** The run's newest intent_approval gate, if it ever opened one. */
  latestIntent: LatestIntent | null;
  /** A pending phase_review gate of the run, if any. */
  pendingReview: { id: string } | null;
}

/** The hold on a run, or null when it may act. */
export function runHoldOf(facts: RunHoldFacts): RunHold | null {
  if (facts.status === 'paused') return { reason: 'paused', gateId: null };
  const intent = intentHoldOf(facts);
  if (intent !== null) return intent;
  if (facts.pendingReview !== null) return { reason: 'phase_review', gateId: facts.pendingReview.id };
  return null;
}

/** The hold that stops `act`, or null when the act may go ahead. */
export function holdBlocking(hold: RunHold | null, act: RunAct): RunHold | null {
  if (hold === null || act === 'read') return null;
  switch (hold.reason) {
    case 'intent_required':
    case 'intent_pending':
    case 'intent_not_approved':
      return intentHoldBlocks(hold.reason, act) ? hold : null;
    default:
      return hold;
  }
}

const HOLD_TEXT: Readonly<Record<RunHoldReason, string>> = {
  paused: 'is paused by a person; it acts again once resumed',
  intent_required:
    'has no approved plan: at its autonomy level a person approves the intent (Gate 0) before any implementation; submit the plan for intent approval first (a request with event planning_complete)',
  intent_pending: 'waits for a person to approve its intent (Gate 0)',
  intent_not_approved:
    'is back in planning: its intent was not approved; send a revised plan (event planning_complete) for approval',
  phase_review: 'is frozen for a phase review; it goes on once the review is decided',
};

/** RUN_HELD naming the run, the reason and the gate that releases it. */
export function runHeldError(runId: string, hold: RunHold): GatehouseError {
  const gate = hold.gateId === null ? '' : ` (gate ${hold.gateId})`;
  return new GatehouseError('RUN_HELD', `run ${runId} ${HOLD_TEXT[hold.reason]}${gate}`, {
    runId,
    reason: hold.reason,
    gateId: hold.gateId,
  });
}

/** Throws RUN_HELD when the run's hold stops `act`. */
export function assertRunMayAct(runId: string, hold: RunHold | null, act: RunAct): void {
  const blocking = holdBlocking(hold, act);
  if (blocking !== null) throw runHeldError(runId, blocking);
}

/** What a run's status follows from while it is running or waiting. */
export interface SettledStatusFacts {
  status: RunStatus;
  pendingGates: number;
  /** Status of the job-complete review whose approval completes the run, if one was opened. */
  finalReview: GateStatus | null;
}

/**
 * Where a running or waiting run stands from its gates: `waiting` while one is pending,
 * `completed` once its final review was approved, else `running`. Other statuses are kept.
 */
export function settledRunStatus(facts: SettledStatusFacts): RunStatus {
  if (facts.status !== 'running' && facts.status !== 'waiting') return facts.status;
  if (facts.pendingGates > 0) return 'waiting';
  return facts.finalReview === 'approved' ? 'completed' : 'running';
}

/** The last phase boundary a run reported, and how its review ended (null: it did not freeze). */
export interface LastCheckpoint {
  phase: number;
  type: PhaseType;
  jobComplete: boolean;
  review: GateStatus | null;
  /** The review's feedback when it requested changes. */
  feedback: string | null;
}

/**
 * The phase the run's next checkpoint must report: phases advance one at a time; a review that
 * requested changes on a strategic phase, or ended unanswered, is checkpointed again on the same phase.
 */
export function nextCheckpointPhase(last: LastCheckpoint | null): number {
  if (last === null) return 1;
  if (last.review === null || last.review === 'approved') return last.phase + 1;
  if (last.feedback === null) return last.phase;
  const boundary = { phaseNumber: last.phase, phaseType: last.type, jobCompleteCalled: last.jobComplete };
  return resumeAfterFreeze(boundary, { feedback: last.feedback }).phaseNumber;
}

/** PHASE_OUT_OF_ORDER unless `phase` is the one the run's next checkpoint must report. */
export function assertNextPhase(runId: string, last: LastCheckpoint | null, phase: number): void {
  const expected = nextCheckpointPhase(last);
  if (phase === expected) return;
  const why =
    last === null
      ? 'a run starts at phase 1'
      : last.review === 'pending'
        ? `phase ${last.phase} is still under review`
        : `phases advance one at a time after phase ${last.phase}`;
  throw new GatehouseError(
    'PHASE_OUT_OF_ORDER',
    `run ${runId} must checkpoint phase ${expected} next: ${why}`,
    {
      field: 'phase',
      runId,
      expected,
      got: phase,
    },
  );
}
