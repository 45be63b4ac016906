import type { TrustProposalDocument } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { evidenceLine } from './trust.js';

const base: TrustProposalDocument = {
  id: 'tp_1',
  kind: 'scope',
  agentId: 'agent_a',
  tool: 'bash',
  autonomy: null,
  scope: { kind: 'prefix', prefix: 'npm test' },
  acceptedScope: null,
  description: 'bash(npm test:*)',
  status: 'proposed',
  evidence: {
    approvals: 12,
    people: ['user:a', 'user:b'],
    firstAt: 0,
    lastAt: 0,
    spanDays: 5,
    medianDecisionMs: 4000,
  },
  replay: { windowDays: 90, wouldAllow: 12, rejected: 0, steered: 0, edited: 0, failed: 0, gateIds: [] },
  createdAt: 0,
  updatedAt: 0,
  decidedBy: null,
  acceptedBy: null,
  ruleId: null,
  expiresAt: null,
  policyVersion: null,
  revokedReason: null,
};

describe('trust evidence lines', () => {
  it('sums up a scope proposal with its replay', () => {
    expect(evidenceLine(base)).toBe(
      '12 approvals by 2 people over 5 days, median 4.0 s; replay over 90 days: 12 allowed, 0 turned down',
    );
  });

  it('sums up an autonomy proposal as phase reviews approved', () => {
    const autonomy: TrustProposalDocument = {
      ...base,
      kind: 'autonomy',
      tool: '',
      autonomy: { from: 'guided', to: 'partial' },
      description: 'agent agent_a autonomy: guided → partial',
      evidence: {
        ...base.evidence,
        approvals: 9,
        people: ['user:a', 'user:b', 'user:c'],
        spanDays: 12,
        medianDecisionMs: 90_000,
      },
    };
    expect(evidenceLine(autonomy)).toBe(
      '9 phase reviews approved by 3 people over 12 days, median 90 s; none turned down in 90 days',
    );
  });
});
