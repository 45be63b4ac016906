import { buildRecoveryParts } from '../briefing/briefing-persistence.js';
import { abort, approve, defineGateType, ending, reject, showing } from './define.js';

/** Seed 001: the agent's recovery is stuck. */
export const recoveryEscalation = defineGateType({
  definition: {
    type: 'recovery_escalation',
    title: 'Recovery escalation',
    trigger:
      'recovery attempts >= 3, confidence < 0.5, CRITICAL severity, a loop detected or a flaky failure',
    threshold: 'mandatory',
    defaultRisk: 'high',
    defaultTimeoutAction: 'escalate',
    options: [
      approve('a', 'Override and let the agent continue with your guidance'),
      reject('r', 'Require a manual fix from a person'),
      ending(
        'retry',
        'Retry',
        '1',
        'Reset the recovery counter and give the agent another chance',
        'resolved',
      ),
      showing('view', 'View', '2', 'Show the detailed recovery attempt logs'),
      ending('delegate', 'Delegate', '3', 'Assign the task to a different agent', 'resolved', ['delegateTo']),
      abort('4'),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    // Seed 001 sets retention only for its own gates; every other type keeps decisions a year.
    retentionDays: 90,
  },
  briefing: buildRecoveryParts,
  batchable: false,
  neverProceeds: true,
  withdrawable: false,
  openedBy: 'trigger_rules',
  policyEvent: 'recovery',
});
