import { buildFalsePositiveParts } from '../briefing/briefing-persistence.js';
import { defineGateType, ending, showing } from './define.js';

/** Seed 001: someone reported a false positive, or the detection is unsure. */
export const falsePositiveOverride = defineGateType({
  definition: {
    type: 'false_positive_override',
    title: 'False positive override',
    trigger: 'someone reported a false positive, or the detection confidence is below 0.7',
    threshold: 'mandatory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      ending(
        'legitimate',
        'Legitimate',
        '1',
        'Allow the change and mark the detection a false positive',
        'resolved',
      ),
      ending('violation', 'Violation', '2', 'Confirm the detection and block the change', 'resolved'),
      ending('needs_review', 'Needs review', '3', 'Ask the reporter for more context', 'resolved'),
      showing('diff', 'Diff', '4', 'Show the detailed diff of the changes'),
      showing('history', 'History', '5', 'Show the pattern history for this file'),
      ending(
        'whitelist',
        'Whitelist',
        '6',
        'Allow this pattern where you choose: this file (the default) or a glob, this agent or every agent, up to 90 days (tech lead)',
        'resolved',
        ['reason'],
      ),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'always',
    retentionDays: 365,
  },
  // Saying no confirms the detection; letting the agent go on calls it legitimate.
  equivalents: { reject: 'violation', approve: 'legitimate' },
  briefing: buildFalsePositiveParts,
  batchable: false,
  neverProceeds: true,
  withdrawable: false,
  openedBy: 'trigger_rules',
  policyEvent: 'false_positive',
});
