import { buildConfidenceParts } from '../briefing/briefing-builders.js';
import { approve, defineGateType, rejectRollback, steer } from './define.js';

/** The agent reported a confidence below the threshold. */
export const confidenceThreshold = defineGateType({
  definition: {
    type: 'confidence_threshold',
    title: 'Low confidence review',
    trigger: 'the agent reported a confidence below the threshold',
    threshold: 'conditional',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      approve('a', 'Continue with the task output as it is'),
      rejectRollback('r', 'Roll the task step back'),
      steer('s', 'Clarify what the agent should do and let it retry'),
    ],
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  briefing: buildConfidenceParts,
  batchable: true,
  withdrawable: false,
  openedBy: 'server',
  policyEvent: 'task_completion',
});
