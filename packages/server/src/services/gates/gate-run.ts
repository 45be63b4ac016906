import type { Gate, Run } from 'gatehouse-hitl-core';
import type { StoreTx } from 'gatehouse-hitl-store';
import { settleRunStatus } from '../runs/run-records.js';

const ATTEMPTS = 5;

/**
 * Applies `change` to a run with a conditional update, re-reading it when another
 * transaction changed it first; returns the run as written, or null when there is none.
 */
export async function updateRunWith(
  tx: StoreTx,
  runId: string,
  change: (run: Run) => Promise<Run | null> | Run | null,
): Promise<Run | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const stored = await tx.getRun(runId);
    if (stored === null) return null;
    const { version, ...run } = stored;
    const next = await change(run);
    if (next === null) return run;
    if (await tx.updateRun({ ...next, updatedAt: tx.now }, version)) return next;
  }
  throw new Error(`run ${runId} kept changing underneath; gave up after ${ATTEMPTS} attempts`);
}

/**
 * Keeps a run's status right while gates open and end: `waiting` while one is pending, `completed`
 * once its final review is approved, else `running` (the rule lives with the runs).
 */
export async function refreshRunStatus(tx: StoreTx, runId: string | null, opened?: Gate): Promise<void> {
  await settleRunStatus(tx, runId, opened);
}

/** Stores a steer instruction in the run's user-instruction memory. */
export async function appendRunInstruction(tx: StoreTx, runId: string | null, text: string): Promise<void> {
  if (runId === null || text.trim() === '') return;
  await updateRunWith(tx, runId, (run) => ({ ...run, instructions: [...run.instructions, text] }));
}
