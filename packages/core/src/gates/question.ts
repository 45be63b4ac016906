import { QUESTION_GATE_TYPE } from '../gate-types/index.js';
import type { Verdict } from './request-verdict.js';

/** True when a request asks a person a question rather than for leave to act. */
export function isQuestionRequest(request: {
  gateType?: string | undefined;
  event?: string | undefined;
}): boolean {
  return request.gateType === QUESTION_GATE_TYPE || request.event === QUESTION_GATE_TYPE;
}

/**
 * The verdict on a question: only a person answers it, so an allow still opens a question gate and
 * a gating rule's settings apply to one; a deny stays a deny (the policy may forbid asking).
 */
export function questionVerdict(verdict: Verdict): Verdict {
  if (verdict.outcome === 'denied') return verdict;
  if (verdict.outcome === 'gated') return { ...verdict, gate: { ...verdict.gate, type: QUESTION_GATE_TYPE } };
  return {
    outcome: 'gated',
    ruleId: verdict.ruleId,
    reason: 'a question always waits for a person’s answer',
    via: 'policy',
    gate: { type: QUESTION_GATE_TYPE },
  };
}
