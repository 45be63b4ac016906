import type { AutonomyLevel, StandingScope } from 'gatehouse-hitl-core';

/** Where a trust proposal stands: people accept, dismiss or revoke it; time expires it. */
export type TrustProposalStatus = 'proposed' | 'accepted' | 'dismissed' | 'expired' | 'revoked';

/** A scoped allow rule the decision history earned, and what people did with it. */
export interface TrustProposalRecord {
  id: string;
  /** The agent, tool and proposed scope as one stable text: a refresh finds its own proposal. */
  key: string;
  agentId: string;
  tool: string;
  /** The scope the history earned. */
  scope: StandingScope;
  /** The scope a person accepted (the proposed one or narrower); null until accepted. */
  acceptedScope: StandingScope | null;
  status: TrustProposalStatus;
  /** Core's evidence and replay, as JSON. */
  evidence: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  /** The person who accepted, dismissed or revoked it. */
  decidedBy: string | null;
  acceptedBy: string | null;
  /** The remembered rule that lets the calls through once accepted. */
  ruleId: string | null;
  expiresAt: number | null;
  /** The policy version its acceptance wrote. */
  policyVersion: number | null;
  /** Why it was revoked: a person, a rejected call, a harmful report. */
  revokedReason: string | null;
  /** A scoped allow rule, or one autonomy level up for the agent (then tool is empty and scope unused). */
  kind: TrustProposalKind;
  /** The autonomy step of an autonomy proposal; null for a scope. */
  autonomy: { from: AutonomyLevel; to: AutonomyLevel } | null;
}

/** What a trust proposal changes: a scoped allow rule, or an agent's autonomy level. */
export type TrustProposalKind = 'scope' | 'autonomy';

/** Which proposals a list returns: all of them, or those in the given statuses, of one agent. */
export interface TrustProposalFilter {
  status?: TrustProposalStatus[];
  agentId?: string;
}

/** Trust proposals and the learned rules they became. */
export interface TrustRepo {
  insertTrustProposal(record: TrustProposalRecord): Promise<void>;
  getTrustProposal(id: string): Promise<TrustProposalRecord | null>;
  /** Newest first; every status unless one is given. */
  listTrustProposals(filter: TrustProposalFilter): Promise<TrustProposalRecord[]>;
  /** Writes `record` only if the stored row is still in `expectedStatus`; false when it moved on. */
  updateTrustProposal(record: TrustProposalRecord, expectedStatus: TrustProposalStatus): Promise<boolean>;
}
