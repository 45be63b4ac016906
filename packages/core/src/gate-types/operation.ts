import { buildToolCallParts } from '../briefing/briefing-builders.js';
import { defineGateType } from './define.js';
import { TOOL_CALL_OPTIONS } from './tool-call.js';

/** The policy says an operation (an action that names no tool) needs approval. */
export const operation = defineGateType({
  definition: {
    type: 'operation',
    title: 'Operation approval',
    trigger: 'the policy says an operation needs approval',
    threshold: 'conditional',
    defaultRisk: 'medium',
    defaultTimeoutAction: 'deny',
    options: TOOL_CALL_OPTIONS,
    steerable: true,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  briefing: buildToolCallParts,
  batchable: true,
  withdrawable: true,
  openedBy: 'agent',
  policyEvent: 'operation',
});
