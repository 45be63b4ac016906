import { buildIntentParts } from '../briefing/briefing-builders.js';
import { approve, defineGateType, rejectRollback, steer } from './define.js';

/** Gate 0: the plan is done, before any implementation starts. */
export const intentApproval = defineGateType({
  definition: {
    type: 'intent_approval',
    title: 'Intent & requirements approval',
    trigger: 'planning artifacts are done, before any implementation starts',
    threshold: 'mandatory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      approve('a', 'Proceed to implementation'),
      rejectRollback('r', 'Discard the planning artifacts and start planning again'),
      steer('s', 'Correct the requirements or design, optionally naming the artifacts to update'),
    ],
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  briefing: buildIntentParts,
  batchable: true,
  withdrawable: false,
  openedBy: 'agent',
  policyEvent: 'planning_complete',
});
