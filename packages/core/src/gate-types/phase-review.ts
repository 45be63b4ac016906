import { buildPhaseReviewParts } from '../briefing/briefing-builders.js';
import { defineGateType, ending } from './define.js';

/** Seed 004: the autonomy level freezes the run at a phase boundary. */
export const phaseReview = defineGateType({
  definition: {
    type: 'phase_review',
    title: 'Phase review',
    trigger: 'the autonomy level freezes the run at a phase boundary or after the job is complete',
    threshold: 'mandatory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      ending('approve', 'Approve & merge', 'a', "Squash-merge the phase's branch and continue", 'approved'),
      ending(
        'request_changes',
        'Request changes',
        '1',
        'Resume the agent on the same branch with your comments',
        'resolved',
        ['feedback'],
      ),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  // A reject or a steer on a phase review is a request for changes.
  equivalents: { reject: 'request_changes', steer: 'request_changes' },
  briefing: buildPhaseReviewParts,
  batchable: true,
  withdrawable: false,
  openedBy: 'server',
  policyEvent: 'phase_boundary',
});
