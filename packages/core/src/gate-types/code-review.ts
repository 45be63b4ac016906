import { reviewGateType } from './review.js';

/** The guardrails seed's Code review. */
export const codeReview = reviewGateType({
  type: 'code_review',
  title: 'Code review',
  trigger: 'code changes are ready for review',
});
