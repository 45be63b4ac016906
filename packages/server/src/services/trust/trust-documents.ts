import {
  type Action,
  describeStandingScope,
  GatehouseError,
  learnedRuleState,
  type TrustEvidence,
  type TrustReplay,
} from 'gatehouse-hitl-core';
import type { LearnedRuleDocument, TrustProposalDocument } from 'gatehouse-hitl-protocol';
import type { RememberedRule, TrustProposalRecord } from 'gatehouse-hitl-store';
import { learnedScopeOf } from './trust-revocation.js';

// How proposals and learned rules look on the wire, and the errors about them.

/** What the evidence column holds. */
export interface StoredEvidence {
  evidence: TrustEvidence;
  replay: TrustReplay;
  /** The newest approved call the scope covers: what a narrowed scope must still cover. */
  sample: Action;
}

export function stored(record: TrustProposalRecord): StoredEvidence {
  return record.evidence as unknown as StoredEvidence;
}

export function describe(record: TrustProposalRecord): string {
  if (record.kind === 'autonomy' && record.autonomy !== null)
    return `agent ${record.agentId} autonomy: ${record.autonomy.from} → ${record.autonomy.to}`;
  return describeStandingScope(record.tool, record.acceptedScope ?? record.scope);
}

export function documentOf(record: TrustProposalRecord): TrustProposalDocument {
  const { evidence, replay } = stored(record);
  const { key: _key, evidence: _stored, ...rest } = record;
  return {
    ...rest,
    description: describe(record),
    evidence,
    replay,
  };
}

export function ruleDocumentOf(
  record: TrustProposalRecord,
  rule: RememberedRule,
  now: number,
): LearnedRuleDocument {
  return {
    id: rule.id,
    proposalId: record.id,
    agentId: record.agentId,
    tool: record.tool,
    scope: learnedScopeOf(record).scope,
    description: describeStandingScope(record.tool, learnedScopeOf(record).scope),
    state: learnedRuleState(rule, now),
    acceptedBy: record.acceptedBy ?? rule.createdBy,
    acceptedAt: rule.createdAt,
    expiresAt: rule.expiresAt,
    revokedAt: rule.revokedAt,
    revokedBy: rule.revokedBy,
    revokedReason: record.revokedReason,
    policyVersion: record.policyVersion,
    evidence: stored(record).evidence,
  };
}

export function notFound(id: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no trust proposal ${id}`, { field: 'id', id });
}

export function notProposed(record: TrustProposalRecord): GatehouseError {
  return new GatehouseError(
    'INVALID_TRANSITION',
    `trust proposal ${record.id} is ${record.status}; only a proposed one can be accepted or dismissed`,
    { id: record.id, status: record.status },
  );
}
