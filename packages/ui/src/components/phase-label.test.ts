import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { phaseReviewLabel } from './phase-label.js';

const gate = (type: string, context: Record<string, unknown>) => ({ type, context }) as Gate;

describe('phaseReviewLabel', () => {
  it.each([
    [{ phase: 2, type: 'strategic', jobComplete: false }, 'Phase 2 · strategic review'],
    [{ phase: 3, type: 'tactical' }, 'Phase 3 · tactical review'],
    [{ phase: 4, type: 'tactical', jobComplete: true }, 'Phase 4 · tactical review · final review'],
    [{}, 'Review'],
  ])('labels %o as %s', (context, label) => {
    expect(phaseReviewLabel(gate('phase_review', context))).toBe(label);
  });

  it('says nothing for other gate types', () => {
    expect(phaseReviewLabel(gate('tool_call', { phase: 1, type: 'strategic' }))).toBeNull();
  });
});
