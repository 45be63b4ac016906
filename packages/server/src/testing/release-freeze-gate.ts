import { defineGateType } from 'gatehouse-hitl-core';

/**
 * A gate type written as a built-in one is, in one object: a release asked for during a freeze.
 * The gate-type fixture test registers it to show that one spec is all a new type needs.
 */
export const releaseFreeze = defineGateType({
  definition: {
    type: 'release_freeze',
    title: 'Release during a freeze',
    trigger: 'the agent wants to release while releases are frozen',
    threshold: 'conditional',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      {
        id: 'approve',
        label: 'Approve',
        key: 'a',
        description: 'Release now',
        ends: true,
        outcome: 'approved',
        requires: [],
      },
      {
        id: 'reject',
        label: 'Reject',
        key: 'r',
        description: 'Do not release',
        ends: true,
        outcome: 'rejected',
        requires: [],
      },
      {
        id: 'postpone',
        label: 'Postpone',
        key: '1',
        description: 'Release once the freeze ends',
        ends: true,
        outcome: 'resolved',
        requires: [],
      },
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  briefing: ({ context, agent }) => ({
    summary: `${agent ?? 'The agent'} wants to release ${String(context.version ?? 'a version')} during the freeze`,
    sections: [
      { title: 'Release', fields: [{ label: 'Version', value: String(context.version) }], lines: [] },
    ],
  }),
  batchable: false,
  withdrawable: true,
  openedBy: 'agent',
});
