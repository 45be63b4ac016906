import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';

/**
 * A phase review's place in the run, "Phase 2 · strategic review", with "· final review" when the
 * agent called the job complete; null for any other gate.
 */
export function phaseReviewLabel(gate: Pick<Gate, 'type' | 'context'>): string | null {
  if (gate.type !== 'phase_review') return null;
  const { phase, type, jobComplete } = gate.context;
  const kind = type === 'strategic' || type === 'tactical' ? `${type} review` : 'review';
  const label =
    typeof phase === 'number' ? `Phase ${phase} · ${kind}` : kind[0]?.toUpperCase() + kind.slice(1);
  return jobComplete === true ? `${label} · final review` : label;
}
