import { buildDeploymentParts } from '../briefing/briefing-builders.js';
import { reviewGateType } from './review.js';

/** The guardrails seed's deployment approval: a review gate at high risk, for tech leads, decided one at a time. */
export const deploymentApproval = reviewGateType({
  type: 'deployment_approval',
  title: 'Deployment approval',
  trigger: 'a deployment is about to start',
  definition: { defaultRisk: 'high', minRole: 'tech_lead', signature: 'critical' },
  briefing: buildDeploymentParts,
  batchable: false,
});
