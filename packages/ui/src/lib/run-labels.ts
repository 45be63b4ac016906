import type { ApprovalMode, AutonomyLevel, PhaseType } from 'gatehouse-hitl-core';

export const AUTONOMY_LABEL: Record<AutonomyLevel, string> = {
  full: 'Full',
  review: 'Review',
  partial: 'Partial',
  guided: 'Guided',
  dependent: 'Dependent',
};

export const APPROVAL_MODE_LABEL: Record<ApprovalMode, string> = {
  auto: 'Auto',
  manual: 'Manual (every step waits)',
  confidence_threshold: 'Confidence threshold',
};

/** "Phase 2 · tactical" */
export function phaseLabel(phaseNumber: number, phaseType: PhaseType): string {
  return `Phase ${phaseNumber} · ${phaseType}`;
}

/** A 0–1 share as a whole percentage, or an em dash when there is nothing to divide by. */
export function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 1000) / 10}%`;
}

/** Seconds as a short duration: 42 s, 3.5 min, 2.1 h, 1.4 d. */
export function seconds(value: number | null): string {
  if (value === null) return '—';
  if (value < 1) return `${Math.round(value * 100) / 100} s`;
  if (value < 90) return `${Math.round(value * 10) / 10} s`;
  if (value < 90 * 60) return `${Math.round(value / 6) / 10} min`;
  if (value < 36 * 3600) return `${Math.round(value / 360) / 10} h`;
  return `${Math.round(value / 8640) / 10} d`;
}
