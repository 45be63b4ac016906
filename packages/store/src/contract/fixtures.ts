import { randomBytes } from 'node:crypto';
import type { Agent, ConfidenceReport, Gate, Intervention, Run } from 'gatehouse-hitl-core';
import type { RememberedRule, UserRecord } from '../types.js';

/** A short random suffix so records of one test never collide. */
export function uid(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export function makeAgent(overrides: Partial<Agent> = {}): Agent {
  return {
    id: uid('agent'),
    name: uid('name'),
    profile: 'coder',
    autonomy: null,
    createdAt: 1_000,
    ...overrides,
  };
}

export function makeUser(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: uid('user'),
    name: uid('person'),
    role: 'developer',
    passwordHash: 'scrypt$abc',
    disabled: false,
    createdAt: 1_000,
    ...overrides,
  };
}

export function makeRun(overrides: Partial<Run> = {}): Run {
  return {
    id: uid('run'),
    agentId: 'agent_a',
    status: 'running',
    autonomy: 'partial',
    approvalMode: 'auto',
    confidenceThreshold: 0.8,
    phaseNumber: 1,
    phaseType: 'strategic',
    instructions: [],
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

export function makeGate(overrides: Partial<Gate> = {}): Gate {
  return {
    id: uid('gate'),
    type: 'tool_call',
    status: 'pending',
    threshold: 'advisory',
    risk: 'medium',
    runId: 'run_a',
    agentId: 'agent_a',
    title: 'Run rm -rf build/',
    action: { tool: 'shell', args: { command: 'rm -rf build/' } },
    payloadHash: 'abc123',
    context: { cwd: '/work', nested: { depth: [1, 2, { three: true }] } },
    artifacts: ['build/'],
    options: [
      {
        id: 'approve',
        label: 'Approve',
        key: 'a',
        description: 'Go ahead',
        ends: true,
        outcome: 'approved',
        requires: [],
      },
      {
        id: 'reject',
        label: 'Reject',
        key: 'r',
        description: 'Stop',
        ends: true,
        outcome: 'rejected',
        requires: ['reason'],
      },
    ],
    confidence: 0.62,
    createdAt: 1_000,
    timeoutAt: null,
    timeoutAction: 'deny',
    escalationChain: ['tech_lead', 'admin'],
    minRole: 'developer',
    requiredApprovals: 1,
    approvals: [],
    separationOfDuties: false,
    requestedBy: 'agent_a',
    assignees: [],
    signatureRequired: false,
    steerable: true,
    editable: true,
    policyRuleId: 'shell-needs-approval',
    decision: null,
    ...overrides,
  };
}

export function makeRule(overrides: Partial<RememberedRule> = {}): RememberedRule {
  return {
    id: uid('rule'),
    scope: 'agent',
    runId: null,
    agentId: 'agent_a',
    tool: 'read_file',
    argsHash: null,
    match: null,
    createdBy: 'user_lead',
    createdAt: 1_000,
    expiresAt: null,
    revokedAt: null,
    revokedBy: null,
    sourceGateId: null,
    ...overrides,
  };
}

export function makeReport(overrides: Partial<ConfidenceReport> = {}): ConfidenceReport {
  return {
    id: uid('conf'),
    runId: 'run_a',
    agentId: 'agent_a',
    taskId: null,
    confidence: 0.42,
    reasons: ['tests are flaky'],
    createdAt: 1_000,
    ...overrides,
  };
}

export function makeIntervention(overrides: Partial<Intervention> = {}): Intervention {
  return {
    id: uid('int'),
    runId: 'run_a',
    kind: 'pause',
    instruction: null,
    by: 'user_lead',
    createdAt: 1_000,
    ...overrides,
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
