import { buildConstraintParts } from '../briefing/briefing-builders.js';
import { abort, defineGateType, ending } from './define.js';

/** The task cannot be done within its spec or budget. */
export const constraintException = defineGateType({
  definition: {
    type: 'constraint_exception',
    title: 'Constraint exception',
    trigger: 'the task cannot be done within its spec or budget',
    threshold: 'advisory',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: [
      ending(
        'expand_constraint',
        'Expand constraint',
        '1',
        'Allow more time, resources or scope up to a new limit',
        'resolved',
        ['newLimit'],
      ),
      ending('reduce_scope', 'Reduce scope', '2', 'Simplify the task to fit the constraint', 'resolved'),
      abort('3'),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  // Its way of saying no is abort; of going on under new instructions, reducing the scope.
  equivalents: { reject: 'abort', steer: 'reduce_scope' },
  briefing: buildConstraintParts,
  batchable: true,
  withdrawable: true,
  openedBy: 'agent',
  policyEvent: 'constraint_violation',
});
