import { reviewGateType } from './review.js';

/** The guardrails seed's PRD review. */
export const prdReview = reviewGateType({
  type: 'prd_review',
  title: 'PRD review',
  trigger: 'a product requirements document is ready for review',
});
