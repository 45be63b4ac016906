import { batchEligibility } from 'gatehouse-hitl-core';
import type { ListedGate as Gate } from '../../api/gates.js';

/** A selected gate a batch leaves out, and why. */
export interface ExcludedGate {
  gate: Gate;
  reason: string;
}

/** The selected gates a batch may end, and the ones it leaves out with the reason. */
export interface BatchSplit {
  eligible: Gate[];
  excluded: ExcludedGate[];
}

/** Splits a selection by core's batch rule, the same one the server enforces. */
export function splitBatch(gates: readonly Gate[]): BatchSplit {
  const split: BatchSplit = { eligible: [], excluded: [] };
  for (const gate of gates) {
    const verdict = batchEligibility(gate);
    if (verdict.eligible) split.eligible.push(gate);
    else split.excluded.push({ gate, reason: verdict.reason });
  }
  return split;
}
