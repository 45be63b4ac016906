import {
  type Gate,
  type TrustHistoryEntry,
  type TrustOutcome,
  type TrustSettings,
  type TrustThresholds,
  trustThresholdsOf,
} from 'gatehouse-hitl-core';
import type { GatesRepo } from 'gatehouse-hitl-store';

const DAY = 86_400_000;
const PAGE = 1000;
/** A recovery gate opened this soon after a call in the same run reports a failure after it. */
export const FAILURE_WINDOW_MS = 3_600_000;
const ENDED = ['approved', 'rejected', 'steered', 'expired', 'cancelled', 'resolved'] as const;

/** How a gate ended, as the trust ramp reads it; null for one it does not learn from. */
export function trustOutcomeOf(gate: Gate): TrustOutcome | null {
  const decision = gate.decision;
  if (decision === null) return null;
  if (decision.outcome === 'approved') return decision.editedArgs === undefined ? 'approved' : 'edited';
  if (decision.outcome === 'rejected' || decision.outcome === 'steered') return decision.outcome;
  if (decision.outcome === 'expired' || decision.outcome === 'cancelled') return decision.outcome;
  return null;
}

/** When each run reported a failure (a recovery gate opened). */
export function failuresByRun(gates: readonly Gate[]): Map<string, number[]> {
  const byRun = new Map<string, number[]>();
  for (const gate of gates) {
    if (gate.type !== 'recovery_escalation' || gate.runId === null) continue;
    byRun.set(gate.runId, [...(byRun.get(gate.runId) ?? []), gate.createdAt]);
  }
  return byRun;
}

/** Ended gates about a tool call, oldest first, as core's trust history. */
export function historyOf(gates: readonly Gate[]): TrustHistoryEntry[] {
  const failures = failuresByRun(gates);
  const entries: TrustHistoryEntry[] = [];
  for (const gate of gates) {
    const outcome = trustOutcomeOf(gate);
    if (outcome === null || gate.action?.tool === undefined || gate.agentId === null) continue;
    const after = gate.runId === null ? [] : (failures.get(gate.runId) ?? []);
    entries.push({
      gateId: gate.id,
      agentId: gate.agentId,
      action: gate.action,
      outcome,
      decidedBy: gate.decision?.decidedBy ?? null,
      createdAt: gate.createdAt,
      decidedAt: gate.decision?.decidedAt ?? null,
      signed: gate.signatureRequired,
      requiredApprovals: gate.requiredApprovals,
      failedAfter: after.some((at) => at > gate.createdAt && at - gate.createdAt <= FAILURE_WINDOW_MS),
    });
  }
  return entries;
}

/** Every ended gate opened within the window, read page by page in the caller's transaction. */
export async function readEndedGates(tx: GatesRepo, since: number): Promise<Gate[]> {
  const gates: Gate[] = [];
  let cursor: string | undefined;
  do {
    const page = await tx.listGates({ status: [...ENDED], limit: PAGE, ...(cursor ? { cursor } : {}) });
    gates.push(...page.items.filter((gate) => gate.createdAt >= since));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return gates;
}

/** The thresholds of the policy's trust section, each unset one at its default. */
export function thresholdsOf(policy: { trust?: TrustSettings | undefined }): TrustThresholds {
  return trustThresholdsOf(policy.trust);
}

/** The start of the replay window. */
export function windowStart(now: number, thresholds: TrustThresholds): number {
  return now - thresholds.windowDays * DAY;
}
