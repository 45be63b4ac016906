import {
  type Gate,
  GatehouseError,
  intentHoldOf,
  type PhaseType,
  type RecoveryState,
  type Run,
  type RunHold,
  type RunStatus,
  runHoldOf,
  settledRunStatus,
} from 'gatehouse-hitl-core';
import type { GatesRepo, RunsRepo, TxClock } from 'gatehouse-hitl-store';
import type { Principal } from '../../http/principal.js';
import type { AuditedTx } from '../commit.js';
import { assertWritten, retryLostUpdates } from '../lost-update.js';
import type { InterventionNotice } from '../types.js';

/** A run as stored: core's Run plus what the server keeps beside it in the same document. */
export interface RunDocument extends Run {
  title?: string | null;
  /** The job-complete phase review; approving it completes the run. */
  finalReviewGateId?: string | null;
  /** Interventions not yet handed to the agent with an answer. */
  unseen?: InterventionNotice[];
  /** True when the run was created with its own confidence threshold (it then also applies to reports). */
  confidenceThresholdSet?: boolean;
  /** Recovery attempts the server has counted since the last `retry` decision. */
  recovery?: RecoveryState | null;
  /** The run's newest intent_approval gate (Gate 0). */
  intentGateId?: string | null;
  /** What its gates hold the run for (intent, phase review); a pause is read from `status`. */
  hold?: RunHold | null;
  /** The last phase boundary the agent reported, with the review gate it opened. */
  lastCheckpoint?: { phase: number; type: PhaseType; jobComplete: boolean; gateId: string | null } | null;
}

/**
 * The run's hold now: a pause, what its gates hold it for, or Gate 0 before the run sent a plan,
 * read from the run row alone (no query on the request path).
 */
export function currentHold(run: RunDocument): RunHold | null {
  if (run.status === 'paused') return { reason: 'paused', gateId: null };
  if (run.hold) return run.hold;
  if ((run.intentGateId ?? null) !== null) return null;
  return intentHoldOf({ autonomy: run.autonomy, latestIntent: null });
}

/** A stored run with its row version, for conditional updates. */
export type VersionedRun = RunDocument & { version: number };

/** A run as the API shows it. */
export type RunView = Run & { title: string | null };

/** The run, or NOT_FOUND. */
export async function loadRun(tx: RunsRepo, runId: string): Promise<VersionedRun> {
  const run = await tx.getRun(runId);
  if (run === null) throw new GatehouseError('NOT_FOUND', `no run ${runId}`, { runId });
  return run;
}

/** The public fields of a stored run. */
export function runView(run: RunDocument): RunView {
  return {
    id: run.id,
    agentId: run.agentId,
    status: run.status,
    autonomy: run.autonomy,
    approvalMode: run.approvalMode,
    confidenceThreshold: run.confidenceThreshold,
    phaseNumber: run.phaseNumber,
    phaseType: run.phaseType,
    instructions: run.instructions,
    title: run.title ?? null,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}

/** People see every run; an agent sees only its own, and another agent's run is as unknown as a missing one. */
export function assertCanReadRun(principal: Principal, run: Run): void {
  if (principal.kind === 'anonymous') {
    throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
  }
  if (principal.kind === 'agent' && run.agentId !== principal.id) {
    throw new GatehouseError('NOT_FOUND', `no run ${run.id}`, { runId: run.id });
  }
}

/** Only the run's own agent may report on it. */
export function assertOwnRun(principal: Principal, run: Run): string {
  if (principal.kind === 'anonymous') {
    throw new GatehouseError('UNAUTHENTICATED', 'send the agent token as a bearer token');
  }
  if (principal.kind !== 'agent') {
    throw new GatehouseError('FORBIDDEN', 'only the run’s agent can do this, with its agent token');
  }
  assertCanReadRun(principal, run);
  return principal.id;
}

/** RUN_STOPPED for a stopped run, RUN_NOT_ACTIVE for a paused or finished one; running and waiting pass. */
export function assertActive(run: Run): void {
  switch (run.status) {
    case 'running':
    case 'waiting':
      return;
    case 'stopped':
      throw new GatehouseError('RUN_STOPPED', `run ${run.id} was stopped; no further requests are allowed`, {
        runId: run.id,
        status: run.status,
      });
    default:
      throw new GatehouseError('RUN_NOT_ACTIVE', `run ${run.id} is ${run.status}`, {
        runId: run.id,
        status: run.status,
      });
  }
}

/**
 * Applies `change` with a conditional update on the run's version, re-reading it when another
 * transaction changed it first; returns the run as written (or as read when `change` returns null).
 */
export function changeRun(
  tx: RunsRepo & TxClock,
  runId: string,
  change: (run: RunDocument) => Promise<RunDocument | null> | RunDocument | null,
  loaded?: VersionedRun,
): Promise<RunDocument> {
  // The run the caller just read in this transaction serves the first attempt; a retry reads again.
  let first = loaded;
  return retryLostUpdates(async () => {
    const { version, ...run } = first ?? (await loadRun(tx, runId));
    first = undefined;
    const next = await change(run);
    if (next === null) return run;
    const written = { ...next, updatedAt: tx.now };
    assertWritten(await tx.updateRun(written, version), { kind: 'run', id: runId });
    return written;
  });
}

/** Where a running or waiting run stands from its gates (core's settledRunStatus). */
export async function settledStatusOf(tx: GatesRepo, run: RunDocument): Promise<RunStatus> {
  if (run.status !== 'running' && run.status !== 'waiting') return run.status;
  const pendingGates = await tx.countGates({ runId: run.id, status: 'pending' });
  const finalReviewId = run.finalReviewGateId ?? null;
  const finalReview = finalReviewId === null ? null : ((await tx.getGate(finalReviewId))?.status ?? null);
  return settledRunStatus({ status: run.status, pendingGates, finalReview });
}

/** The hold of a run from its newest intent gate and any pending phase review (core's runHoldOf). */
export async function holdOf(
  tx: GatesRepo,
  run: Pick<RunDocument, 'id' | 'status' | 'autonomy' | 'intentGateId'>,
): Promise<RunHold | null> {
  const intentId = run.intentGateId ?? null;
  const [intent, reviews] = await Promise.all([
    intentId === null ? null : tx.getGate(intentId),
    tx.listGates({ runId: run.id, type: 'phase_review', status: 'pending', limit: 1 }),
  ]);
  const review = reviews.items[0];
  return runHoldOf({
    status: run.status,
    autonomy: run.autonomy,
    latestIntent: intent === null ? null : { id: intent.id, status: intent.status },
    pendingReview: review === undefined ? null : { id: review.id },
  });
}

function sameHold(a: RunHold | null | undefined, b: RunHold | null): boolean {
  return (a ?? null) === null ? b === null : b !== null && a?.reason === b.reason && a.gateId === b.gateId;
}

/**
 * Brings a run's status and hold in line with its gates inside the caller's transaction (`opened`:
 * the gate just opened, which may be a new intent gate); audits a completion.
 */
export async function settleRunStatus(
  tools: AuditedTx<RunsRepo & GatesRepo & TxClock>,
  runId: string | null,
  opened?: Gate,
): Promise<void> {
  const { tx } = tools;
  const stored = runId === null ? null : await tx.getRun(runId);
  if (runId === null || stored === null) return;
  let completed = false;
  const run = await changeRun(
    tx,
    runId,
    async (current) => {
      const status = await settledStatusOf(tx, current);
      const intentGateId = opened?.type === 'intent_approval' ? opened.id : (current.intentGateId ?? null);
      // A pause is read from the status itself; the stored hold keeps what the gates say.
      const gatesSay = status === 'paused' ? 'running' : status;
      const hold = await holdOf(tx, { ...current, status: gatesSay, intentGateId });
      completed = status === 'completed' && current.status !== 'completed';
      const same = status === current.status && sameHold(current.hold, hold);
      if (same && intentGateId === (current.intentGateId ?? null)) return null;
      return { ...current, status, hold, intentGateId };
    },
    stored,
  );
  if (completed) {
    await tools.audit({
      kind: 'run.completed',
      actor: 'system',
      subject: runId,
      data: { reason: 'final review approved', gateId: run.finalReviewGateId ?? null },
    });
  }
}
