import {
  assertNextPhase,
  assertRunMayAct,
  freezeContext,
  type Gate,
  type LastCheckpoint,
  type PhaseBoundary,
  type PhaseReviewAnswer,
  type PhaseType,
  phaseBranchName,
  type ResumePlan,
  resumeAfterFreeze,
  shouldFreeze,
} from 'gatehouse-hitl-core';
import type { ReviewDocument, ReviewFeedback } from 'gatehouse-hitl-protocol';
import type { GatesRepo, ReviewRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { type CommitTools, commit } from '../commit.js';
import { withoutVersion } from '../gates/gate-common.js';
import { retryLostUpdates } from '../lost-update.js';
import { deleteReviewBranches } from '../reviews/review-merge.js';
import { type PreparedBranch, prepareBranch, recordBranchReview } from '../reviews/review-open.js';
import { viewOf } from '../reviews/review-records.js';
import type { GateService } from '../types.js';
import { announceRunStatus, cancelPendingGates } from './interventions.js';
import {
  assertActive,
  assertOwnRun,
  changeRun,
  currentHold,
  loadRun,
  type RunDocument,
  type RunView,
  runView,
} from './run-records.js';

/** A phase boundary the agent reports. */
export interface CheckpointInput {
  phase: number;
  type: PhaseType;
  jobComplete: boolean;
  /** The phase branch pushed for review. */
  branch?: string | undefined;
  retrospective?: string | undefined;
}

/** Whether the run froze for a phase review, and the review gate when it did. */
export interface CheckpointResult {
  freeze: boolean;
  gate: Gate | null;
  run: RunView;
  /** The review of the pushed branch, when the checkpoint named one. */
  review?: ReviewDocument | null;
}

/** The run after `complete`, with the final review gate when its autonomy level asks for one. */
export interface CompleteResult {
  run: RunView;
  gate: Gate | null;
}

/** Where the agent goes after its last decided phase review (core's resume table). */
export interface ResumeView {
  gateId: string;
  /** approved, resolved (changes requested), denied, timed_out or cancelled. */
  status: string;
  option: string | null;
  feedback: string | null;
  /** Null when the review neither approved nor requested changes (rejected, timed out, cancelled). */
  plan: ResumePlan | null;
  /** The comments to answer and where to push, when the phase was reviewed on its branch. */
  review?: ReviewFeedback;
}

const PAGE = 500;

function reviewContext(
  run: RunDocument,
  boundary: PhaseBoundary,
  branch: PreparedBranch | null,
): Record<string, unknown> {
  return {
    phase: boundary.phaseNumber,
    type: boundary.phaseType,
    jobComplete: boundary.jobCompleteCalled,
    branch: branch?.branch ?? phaseBranchName(boundary.phaseNumber, boundary.phaseType),
    freezeContext: freezeContext(boundary),
    autonomy: run.autonomy,
    ...(branch === null ? {} : { reviewId: branch.reviewId, head: branch.head }),
  };
}

/** The phase boundary a phase review gate was opened for, read back from its context. */
export function boundaryOf(gate: Gate): PhaseBoundary | null {
  const { phase, type, jobComplete } = gate.context;
  if (typeof phase !== 'number' || !Number.isInteger(phase) || phase < 1) return null;
  if (type !== 'strategic' && type !== 'tactical') return null;
  return { phaseNumber: phase, phaseType: type, jobCompleteCalled: jobComplete === true };
}

function sameBoundary(gate: Gate, boundary: PhaseBoundary): boolean {
  const other = boundaryOf(gate);
  return (
    other !== null &&
    other.phaseNumber === boundary.phaseNumber &&
    other.phaseType === boundary.phaseType &&
    other.jobCompleteCalled === boundary.jobCompleteCalled
  );
}

async function pendingReviewFor(tx: GatesRepo, runId: string, boundary: PhaseBoundary): Promise<Gate | null> {
  const page = await tx.listGates({ runId, type: 'phase_review', status: 'pending', limit: PAGE });
  return page.items.find((gate) => sameBoundary(gate, boundary)) ?? null;
}

async function openReview(
  gates: GateService,
  tools: CommitTools,
  run: RunDocument,
  boundary: PhaseBoundary,
  branch: PreparedBranch | null = null,
): Promise<Gate> {
  // People know a run by its title; only an untitled run is named by its id.
  const of = run.title ? `“${run.title}”` : `run ${run.id}`;
  const title = boundary.jobCompleteCalled
    ? `Final review of ${of}`
    : `Review of phase ${boundary.phaseNumber} (${boundary.phaseType}) of ${of}`;
  return gates.openInCommit(tools, {
    type: 'phase_review',
    runId: run.id,
    agentId: run.agentId,
    requestedBy: `agent:${run.agentId}`,
    title,
    context: reviewContext(run, boundary, branch),
  });
}

function boundaryOfInput(input: CheckpointInput): PhaseBoundary {
  return { phaseNumber: input.phase, phaseType: input.type, jobCompleteCalled: input.jobComplete };
}

/** Checks the run may checkpoint, then the branch (merging it at once when no approval is needed). */
async function prepareCheckpointBranch(
  ctx: AppContext,
  principal: Principal,
  runId: string,
  input: CheckpointInput & { branch: string },
): Promise<PreparedBranch> {
  const boundary = boundaryOfInput(input);
  const facts = await ctx.store.read(async (tx) => {
    const { version: _version, ...run } = await loadRun(tx, runId);
    assertOwnRun(principal, run);
    assertLive(run);
    const freeze = shouldFreeze({ autonomy: run.autonomy, ...boundary });
    const pending = freeze ? await pendingReviewFor(tx, runId, boundary) : null;
    if (pending === null) {
      assertRunMayAct(runId, currentHold(run), 'checkpoint');
      assertNextPhase(runId, await lastCheckpointOf(tx, run), input.phase);
    }
    const existing = await tx.findReview({ runId, ...input, jobComplete: input.jobComplete });
    return { run, freeze, existing };
  });
  return prepareBranch(ctx, { ...facts, input });
}

/**
 * A phase boundary: freezes the run for a `phase_review` gate when its autonomy level says so,
 * else records the phase and lets the agent go on. A retry gets the same pending review. With a
 * branch it opens (or updates) the phase's review; merged at once when no approval is needed.
 */
export async function checkpointRun(
  ctx: AppContext,
  gates: GateService,
  principal: Principal,
  runId: string,
  input: CheckpointInput,
): Promise<CheckpointResult> {
  const { branch } = input;
  const prepared =
    branch === undefined ? null : await prepareCheckpointBranch(ctx, principal, runId, { ...input, branch });
  const { result, review } = await commit(ctx, (tools) =>
    checkpointInCommit(tools, gates, principal, runId, input, prepared),
  );
  if (review === null) return result;
  if (review.status === 'merged') await deleteReviewBranches(ctx, review);
  return { ...result, review: await viewOf(ctx, review, result.gate) };
}

async function checkpointInCommit(
  tools: CommitTools,
  gates: GateService,
  principal: Principal,
  runId: string,
  input: CheckpointInput,
  prepared: PreparedBranch | null,
): Promise<{ result: CheckpointResult; review: ReviewRecord | null }> {
  const { tx } = tools;
  const stored = await loadRun(tx, runId);
  const agentId = assertOwnRun(principal, stored);
  assertLive(stored);
  const boundary = boundaryOfInput(input);
  const freeze = shouldFreeze({ autonomy: stored.autonomy, ...boundary });
  const existing = freeze ? await pendingReviewFor(tx, runId, boundary) : null;
  if (existing !== null) {
    const review = prepared === null ? null : await tx.getReview(prepared.reviewId);
    return { result: { freeze: true, gate: existing, run: runView(stored) }, review };
  }
  assertRunMayAct(runId, currentHold(stored), 'checkpoint');
  assertNextPhase(runId, await lastCheckpointOf(tx, stored), input.phase);
  const gate = freeze ? await openReview(gates, tools, stored, boundary, prepared) : null;
  const run = await changeRun(tx, runId, (current) => ({
    ...current,
    phaseNumber: input.phase,
    phaseType: input.type,
    lastCheckpoint: {
      phase: input.phase,
      type: input.type,
      jobComplete: input.jobComplete,
      gateId: gate?.id ?? null,
    },
    ...(gate !== null && input.jobComplete ? { finalReviewGateId: gate.id } : {}),
  }));
  const data = {
    ...boundary,
    freeze,
    gateId: gate?.id ?? null,
    autonomy: stored.autonomy,
    ...(prepared === null ? {} : { branch: prepared.branch, reviewId: prepared.reviewId }),
  };
  await tools.audit({ kind: 'run.checkpoint', actor: `agent:${agentId}`, subject: runId, data });
  await tools.emit({ type: 'run.phase', runId, agentId, gateId: gate?.id ?? null, data });
  const review =
    prepared === null
      ? null
      : await recordBranchReview(tools, prepared, {
          run: stored,
          input: { ...input, branch: prepared.branch },
          gate,
        });
  return { result: { freeze, gate, run: runView(run) }, review };
}

/** A paused run is held (RUN_HELD); a stopped or finished one is not active. */
function assertLive(run: RunDocument): void {
  if (run.status === 'paused') assertRunMayAct(run.id, currentHold(run), 'checkpoint');
  assertActive(run);
}

/** The run's last checkpoint with how its review ended, for core's phase order. */
async function lastCheckpointOf(tx: GatesRepo, run: RunDocument): Promise<LastCheckpoint | null> {
  const last = run.lastCheckpoint ?? null;
  if (last === null) return null;
  const review = last.gateId === null ? null : await tx.getGate(last.gateId);
  const changes = review?.decision?.option === 'request_changes';
  return {
    phase: last.phase,
    type: last.type,
    jobComplete: last.jobComplete,
    review: last.gateId === null ? null : (review?.status ?? 'cancelled'),
    feedback: changes
      ? (review?.decision?.feedback ?? review?.decision?.reason ?? 'changes requested')
      : null,
  };
}

async function completeAtOnce(
  tools: CommitTools,
  stored: RunDocument,
  actor: string,
): Promise<CompleteResult> {
  const cancelled = await cancelPendingGates(tools, stored.id, actor, 'the run was completed');
  const run = await changeRun(tools.tx, stored.id, (current) => ({ ...current, status: 'completed' }));
  await tools.audit({
    kind: 'run.completed',
    actor,
    subject: stored.id,
    data: { autonomy: stored.autonomy, finalReview: false, cancelled },
  });
  await announceRunStatus(tools, run, stored.status, 'complete');
  return { run: runView(run), gate: null };
}

/**
 * The agent says its job is done: a `full` run completes at once; any other level opens a final
 * phase review and waits (approving it completes the run). Retries get the same review.
 */
export function completeRun(
  ctx: AppContext,
  gates: GateService,
  principal: Principal,
  runId: string,
): Promise<CompleteResult> {
  return retryLostUpdates(() =>
    commit(ctx, async (tools) => {
      const { tx } = tools;
      const stored = await loadRun(tx, runId);
      const actor = `agent:${assertOwnRun(principal, stored)}`;
      if (stored.status === 'completed') return { run: runView(stored), gate: null };
      assertLive(stored);
      const previous = stored.finalReviewGateId ? await tx.getGate(stored.finalReviewGateId) : null;
      if (previous?.status === 'pending') return { run: runView(stored), gate: withoutVersion(previous) };
      assertRunMayAct(runId, currentHold(stored), 'complete');
      if (stored.autonomy === 'full') return completeAtOnce(tools, stored, actor);
      const boundary = {
        phaseNumber: stored.phaseNumber,
        phaseType: stored.phaseType,
        jobCompleteCalled: true,
      };
      const gate = await openReview(gates, tools, stored, boundary);
      const run = await changeRun(tx, runId, (current) => ({ ...current, finalReviewGateId: gate.id }));
      await tools.audit({
        kind: 'run.complete_requested',
        actor,
        subject: runId,
        data: {
          autonomy: stored.autonomy,
          gateId: gate.id,
          phase: stored.phaseNumber,
          type: stored.phaseType,
        },
      });
      await announceRunStatus(tools, run, stored.status, 'complete');
      return { run: runView(run), gate };
    }),
  );
}

function answerOf(gate: Gate): PhaseReviewAnswer | null {
  if (gate.status === 'approved') return { approved: true };
  if (gate.status !== 'resolved' || gate.decision?.option !== 'request_changes') return null;
  const feedback = gate.decision.feedback ?? gate.decision.reason ?? '';
  return { feedback: feedback.trim() === '' ? 'changes requested' : feedback };
}

/** The resume step of a decided phase review: what the agent does next. */
export function resumeOf(gate: Gate): ResumeView {
  const boundary = boundaryOf(gate);
  const answer = answerOf(gate);
  return {
    gateId: gate.id,
    status: gate.status,
    option: gate.decision?.option ?? null,
    feedback: gate.decision?.feedback ?? null,
    plan: boundary === null || answer === null ? null : resumeAfterFreeze(boundary, answer),
  };
}

/** The run's most recently decided phase review, or null. */
export async function lastDecidedReview(tx: GatesRepo, runId: string): Promise<Gate | null> {
  let last: Gate | null = null;
  let cursor: string | null = null;
  do {
    const page = await tx.listGates({
      runId,
      type: 'phase_review',
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const gate of page.items) {
      const at = gate.decision?.decidedAt;
      if (gate.status === 'pending' || at === undefined) continue;
      if (last === null || at >= (last.decision?.decidedAt ?? 0)) last = gate;
    }
    cursor = page.nextCursor;
  } while (cursor !== null);
  return last;
}
