import type { Gate } from 'gatehouse-hitl-core';
import type { GatesRepo, RunsRepo, TxClock } from 'gatehouse-hitl-store';
import type { AuditedTx } from '../commit.js';
import { changeRun, settleRunStatus } from '../runs/run-records.js';

/**
 * Keeps a run's status right while gates open and end: `waiting` while one is pending, `completed`
 * once its final review is approved, else `running` (the rule lives with the runs).
 */
export async function refreshRunStatus(
  tools: AuditedTx<RunsRepo & GatesRepo & TxClock>,
  runId: string | null,
  opened?: Gate,
): Promise<void> {
  await settleRunStatus(tools, runId, opened);
}

/** Stores a steer instruction in the run's user-instruction memory. */
export async function appendRunInstruction(
  tx: RunsRepo & TxClock,
  runId: string | null,
  text: string,
): Promise<void> {
  if (runId === null || text.trim() === '') return;
  await changeRun(tx, runId, (run) => ({ ...run, instructions: [...run.instructions, text] }));
}
