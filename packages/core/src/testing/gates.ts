import type { Gate, GateOption } from '../schemas.js';

function option(id: string, label: string, key: string, description: string, ends = true): GateOption {
  return { id, label, key, description, ends, requires: [] };
}

/** Approve / reject / steer, as most gates offer. */
export const REVIEW_OPTIONS: GateOption[] = [
  option('approve', 'Approve', 'a', 'Go ahead as proposed'),
  option('reject', 'Reject', 'r', 'Do not go ahead'),
  option('steer', 'Steer', 's', 'Go ahead with corrected instructions'),
];

/** The recovery escalation options of seed 001. */
export const RECOVERY_OPTIONS: GateOption[] = [
  option('approve', 'Approve', 'a', 'Override and allow agent to continue'),
  option('reject', 'Reject', 'r', 'Require manual fix from human'),
  option('retry', 'Retry', 't', 'Reset counter, give agent another chance'),
  option('view', 'View', 'v', 'Show detailed recovery attempt logs', false),
  option('delegate', 'Delegate', 'd', 'Assign to different agent'),
  option('abort', 'Abort', 'q', 'Stop task entirely'),
];

/** A pending gate of `type` for tests; anything may be overridden. */
export function makeGate(type: string, overrides: Partial<Gate> = {}): Gate {
  return {
    id: `gate_${type}`,
    type,
    status: 'pending',
    threshold: 'mandatory',
    risk: 'medium',
    runId: 'run_1',
    agentId: 'agent_1',
    title: `${type} gate`,
    action: null,
    payloadHash: null,
    context: {},
    artifacts: [],
    options: REVIEW_OPTIONS,
    confidence: null,
    createdAt: Date.UTC(2026, 1, 3, 10, 30),
    timeoutAt: null,
    timeoutAction: 'deny',
    escalationChain: [],
    minRole: 'developer',
    requiredApprovals: 1,
    approvals: [],
    separationOfDuties: false,
    requestedBy: null,
    assignees: [],
    signatureRequired: false,
    steerable: true,
    editable: false,
    policyRuleId: null,
    decision: null,
    ...overrides,
  };
}
