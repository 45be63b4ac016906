import {
  describeStandingScope,
  type Gate,
  type LearnedScope,
  revokesLearnedRule,
  type TrustSignal,
} from 'gatehouse-hitl-core';
import type { TrustProposalRecord } from 'gatehouse-hitl-store';
import type { AuditedTx, WorkTx } from '../commit.js';
import { trustOutcomeOf } from './trust-history.js';

/** What a learned rule covers: the accepted scope. */
export function learnedScopeOf(proposal: TrustProposalRecord): LearnedScope {
  return { agentId: proposal.agentId, tool: proposal.tool, scope: proposal.acceptedScope ?? proposal.scope };
}

/** Why a learned rule ended early, as people read it. */
export interface Revocation {
  actor: string;
  reason: string;
  /** The gate whose answer revoked it, if one did. */
  gateId: string | null;
}

/**
 * Revokes an accepted proposal's rule in the caller's transaction and audits it, naming the people
 * who accepted it so they are told. False when it was no longer in force.
 */
export async function revokeLearned(
  tools: AuditedTx,
  proposal: TrustProposalRecord,
  revocation: Revocation,
): Promise<boolean> {
  const { tx } = tools;
  if (proposal.status !== 'accepted' || proposal.ruleId === null) return false;
  const next: TrustProposalRecord = {
    ...proposal,
    status: 'revoked',
    decidedBy: revocation.actor,
    revokedReason: revocation.reason,
    updatedAt: tx.now,
  };
  if (!(await tx.updateTrustProposal(next, 'accepted'))) return false;
  await tx.revokeRememberedRule(proposal.ruleId, revocation.actor, tx.now);
  await tools.audit({
    kind: 'trust.rule_revoked',
    actor: revocation.actor,
    subject: proposal.ruleId,
    data: {
      proposalId: proposal.id,
      agentId: proposal.agentId,
      description: describeStandingScope(proposal.tool, learnedScopeOf(proposal).scope),
      reason: revocation.reason,
      gateId: revocation.gateId,
      notify: proposal.acceptedBy === null ? [] : [proposal.acceptedBy],
    },
  });
  return true;
}

/** The signal a gate's answer sends to learned rules; null when it is no tool call or an approval. */
export function signalOf(gate: Gate): TrustSignal | null {
  const outcome = trustOutcomeOf(gate);
  if (outcome === null || gate.action?.tool === undefined || gate.agentId === null) return null;
  if (outcome !== 'rejected' && outcome !== 'steered' && outcome !== 'edited') return null;
  return { agentId: gate.agentId, action: gate.action, outcome };
}

/**
 * Trust is lost faster than it is earned: a rejected, steered or edited call a learned rule covers
 * revokes that rule in the decision's own transaction. Reads nothing for an approval.
 */
export async function revokeOnAnswer(tools: AuditedTx<WorkTx>, gate: Gate): Promise<number> {
  const signal = signalOf(gate);
  if (signal === null) return 0;
  const accepted = await tools.tx.listTrustProposals({ status: ['accepted'] });
  let revoked = 0;
  for (const proposal of accepted) {
    if (!revokesLearnedRule(learnedScopeOf(proposal), signal)) continue;
    const reason = `a person ${signal.outcome === 'edited' ? 'edited' : signal.outcome} a call it covers (gate ${gate.id})`;
    const by = gate.decision?.decidedBy;
    const actor = by === undefined ? 'system' : by.includes(':') ? by : `user:${by}`;
    if (await revokeLearned(tools, proposal, { actor, reason, gateId: gate.id })) revoked += 1;
  }
  return revoked;
}
