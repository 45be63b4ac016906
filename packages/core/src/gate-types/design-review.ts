import { reviewGateType } from './review.js';

/** The guardrails seed's Design review. */
export const designReview = reviewGateType({
  type: 'design_review',
  title: 'Design review',
  trigger: 'a design document is ready for review',
});
