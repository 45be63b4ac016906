import {
  type Agent,
  type AutonomyCandidate,
  type AutonomyProposalDraft,
  type AutonomySettings,
  type Gate,
  losesAutonomyTrust,
  type PhaseReviewEntry,
  type PhaseReviewOutcome,
  proposeAutonomy,
  resolveAutonomy,
} from 'gatehouse-hitl-core';
import type { TrustProposalRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { AuditedTx, WorkTx } from '../commit.js';
import { siteUrlOf } from '../notifications/notice.js';
import { changeAutonomy } from '../people/agents.js';
import { FAILURE_WINDOW_MS, failuresByRun } from './trust-history.js';
import { queueTrustNotice } from './trust-revocation.js';

/** How a phase review ended, as the autonomy ramp reads it; null for any other gate or one still open. */
export function phaseReviewOutcomeOf(gate: Gate): PhaseReviewOutcome | null {
  if (gate.type !== 'phase_review' || gate.decision === null) return null;
  const { outcome, option } = gate.decision;
  if (outcome === 'resolved') return option === 'request_changes' ? 'changes_requested' : null;
  return outcome;
}

/** Ended phase reviews of agents, as core's autonomy history. */
export function phaseReviewsOf(gates: readonly Gate[]): PhaseReviewEntry[] {
  const failures = failuresByRun(gates);
  const entries: PhaseReviewEntry[] = [];
  for (const gate of gates) {
    const outcome = phaseReviewOutcomeOf(gate);
    if (outcome === null || gate.agentId === null) continue;
    const after = gate.runId === null ? [] : (failures.get(gate.runId) ?? []);
    entries.push({
      gateId: gate.id,
      agentId: gate.agentId,
      outcome,
      decidedBy: gate.decision?.decidedBy ?? null,
      createdAt: gate.createdAt,
      decidedAt: gate.decision?.decidedAt ?? null,
      failedAfter: after.some((at) => at > gate.createdAt && at - gate.createdAt <= FAILURE_WINDOW_MS),
    });
  }
  return entries;
}

/**
 * Each agent's effective level, pinned when a person set it; a level an accepted autonomy proposal
 * set is the ramp's own, not a pin.
 */
export function autonomyCandidatesOf(
  agents: readonly Agent[],
  accepted: readonly TrustProposalRecord[],
): AutonomyCandidate[] {
  return agents.map((agent) => {
    const ramped = accepted.some(
      (p) => p.kind === 'autonomy' && p.agentId === agent.id && p.autonomy?.to === agent.autonomy,
    );
    return {
      agentId: agent.id,
      level: resolveAutonomy({ profile: agent.profile, agentDefault: agent.autonomy }),
      pinned: agent.autonomy !== null && !ramped,
    };
  });
}

/** Autonomy drafts from what a read of the window found. */
export function autonomyDraftsOf(input: {
  agents: readonly Agent[];
  accepted: readonly TrustProposalRecord[];
  gates: readonly Gate[];
  now: number;
  settings: AutonomySettings | undefined;
}): AutonomyProposalDraft[] {
  return proposeAutonomy({
    agents: autonomyCandidatesOf(input.agents, input.accepted),
    reviews: phaseReviewsOf(input.gates),
    now: input.now,
    thresholds: input.settings,
  });
}

/** What the evidence column of an accepted autonomy proposal keeps: the level to go back to. */
export function previousAutonomyOf(record: TrustProposalRecord): Agent['autonomy'] {
  const previous = (record.evidence as { previous?: Agent['autonomy'] }).previous;
  return previous ?? null;
}

/**
 * Trust is lost faster than it is earned: a rejected, steered or changes-requested phase review
 * (or one followed by a failure) of an agent a proposal raised sets it back, in the decision's commit.
 */
export async function revokeAutonomyOnAnswer(
  ctx: AppContext,
  tools: AuditedTx<WorkTx>,
  gate: Gate,
): Promise<number> {
  const outcome = phaseReviewOutcomeOf(gate);
  if (outcome === null || gate.agentId === null || !losesAutonomyTrust({ outcome, failedAfter: false }))
    return 0;
  const { tx } = tools;
  const accepted = await tx.listTrustProposals({ status: ['accepted'], agentId: gate.agentId });
  const by = gate.decision?.decidedBy;
  const actor = by === undefined ? 'system' : by.includes(':') ? by : `user:${by}`;
  let revoked = 0;
  for (const proposal of accepted) {
    if (proposal.kind !== 'autonomy' || proposal.autonomy === null) continue;
    const reason = `a person ${outcome.replace('_', ' ')} a phase review of the agent (gate ${gate.id})`;
    const next: TrustProposalRecord = {
      ...proposal,
      status: 'revoked',
      decidedBy: actor,
      revokedReason: reason,
      updatedAt: tx.now,
    };
    if (!(await tx.updateTrustProposal(next, 'accepted'))) continue;
    const previous = previousAutonomyOf(proposal);
    await changeAutonomy(tools, {
      actor,
      agentId: proposal.agentId,
      autonomy: previous,
      data: { proposalId: proposal.id, reason, gateId: gate.id },
    });
    await tools.audit({
      kind: 'trust.autonomy_revoked',
      actor,
      subject: proposal.id,
      data: {
        agentId: proposal.agentId,
        from: proposal.autonomy.to,
        to: previous,
        reason,
        gateId: gate.id,
        notify: proposal.acceptedBy === null ? [] : [proposal.acceptedBy],
      },
    });
    const step = `${proposal.autonomy.from} → ${proposal.autonomy.to}`;
    await queueTrustNotice(ctx, tx, {
      acceptedBy: proposal.acceptedBy,
      key: `${proposal.id}:revoked`,
      gateId: gate.id,
      content: {
        // Plain ASCII keeps the subject readable where mail clients show encoded words raw.
        subject: `[Gatehouse] An autonomy change you accepted was revoked: agent ${proposal.agentId} ${proposal.autonomy.from} to ${proposal.autonomy.to}`,
        text:
          `The autonomy change of agent ${proposal.agentId} (${step}, proposal ${proposal.id}) was revoked: ` +
          `${reason}.\nIts autonomy is back to ${previous ?? 'its profile default'}.` +
          `\nGate: ${siteUrlOf(ctx)}/gates/${gate.id}`,
        url: `${siteUrlOf(ctx)}/trust`,
      },
    });
    revoked += 1;
  }
  return revoked;
}
