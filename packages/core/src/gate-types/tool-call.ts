import { buildToolCallParts } from '../briefing/briefing-builders.js';
import type { GateOption } from '../schemas.js';
import { approve, defineGateType, ending, reject, steer } from './define.js';

/** A tool call's or operation's options: once, always (a standing approval), reject, steer. */
export const TOOL_CALL_OPTIONS: GateOption[] = [
  approve('a', 'Run this call once'),
  ending(
    'approve_always',
    'Always',
    'w',
    'Run it, and let later calls like this one (the scope chosen) go ahead without asking',
    'approved',
  ),
  reject('r', 'Do not run this call; the agent is told why'),
  steer('s', 'Do not run it as proposed; give the agent corrected instructions'),
];

/** The policy says a tool call needs approval. */
export const toolCall = defineGateType({
  definition: {
    type: 'tool_call',
    title: 'Tool call approval',
    trigger: 'the policy says a tool call needs approval',
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
  policyEvent: 'tool_call',
});
