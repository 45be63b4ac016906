import { reviewGateType } from './review.js';

/** The guardrails seed's Test review. */
export const testReview = reviewGateType({
  type: 'test_review',
  title: 'Test review',
  trigger: 'tests are ready for review',
});
