import { buildDestructiveParts } from '../briefing/briefing-persistence.js';
import { abort, approve, defineGateType, ending, reject, showing } from './define.js';

/** Seed 001: tests, coverage, features or assertions would be lost. */
export const destructiveAction = defineGateType({
  definition: {
    type: 'destructive_action',
    title: 'Destructive action approval',
    trigger: 'tests removed, coverage drop > 2 %, features removed, assertions weakened > 2, or skips added',
    threshold: 'mandatory',
    defaultRisk: 'high',
    defaultTimeoutAction: 'deny',
    options: [
      approve('a', 'The action is intentional and justified'),
      reject('r', 'The agent must find a non-destructive alternative; alternatives are suggested'),
      showing('view', 'View', '1', 'Show the detailed changes'),
      showing('diff', 'Diff', '2', 'Compare before and after'),
      ending('suggest', 'Suggest', '3', 'Propose an alternative solution to the agent', 'steered', [
        'instructions',
      ]),
      abort('4'),
    ],
    // "suggest" is this type's steer; a plain steer must never turn into approving a destructive action.
    steerable: true,
    minRole: 'tech_lead',
    signature: 'critical',
    retentionDays: 365,
  },
  briefing: buildDestructiveParts,
  batchable: false,
  neverProceeds: true,
  withdrawable: false,
  openedBy: 'trigger_rules',
  policyEvent: 'destructive_action',
});
