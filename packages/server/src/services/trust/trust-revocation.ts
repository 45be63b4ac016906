import { createHash } from 'node:crypto';
import {
  describeStandingScope,
  type Gate,
  type LearnedScope,
  revokesLearnedRule,
  type TrustSignal,
} from 'gatehouse-hitl-core';
import type { NotificationChannelName, TrustProposalRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { AuditedTx, WorkTx } from '../commit.js';
import { configuredChannels } from '../notifications/channels.js';
import { siteUrlOf } from '../notifications/notice.js';
import { trustOutcomeOf } from './trust-history.js';

/** The trigger of the notice to the people who accepted a rule; delivered without a gate. */
export const TRUST_REVOKED_TRIGGER = 'trust.rule_revoked';

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
  ctx: AppContext,
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
  await queueRevokedNotice(ctx, tx, proposal, revocation);
  return true;
}

/**
 * Tells the person who accepted the rule, on each channel they chose, in the revocation's own
 * transaction: the notice exists exactly when the revocation committed.
 */
async function queueRevokedNotice(
  ctx: AppContext,
  tx: AuditedTx['tx'],
  proposal: TrustProposalRecord,
  revocation: Revocation,
): Promise<void> {
  if (proposal.ruleId === null) return;
  const description = describeStandingScope(proposal.tool, learnedScopeOf(proposal).scope);
  const content = {
    subject: `[Gatehouse] A learned rule you accepted was revoked: ${description}`,
    text:
      `The learned rule ${proposal.ruleId} (${description} for agent ${proposal.agentId}) was revoked: ` +
      `${revocation.reason}.\nIts calls wait for a person again.` +
      (revocation.gateId === null ? '' : `\nGate: ${siteUrlOf(ctx)}/gates/${revocation.gateId}`),
    url: `${siteUrlOf(ctx)}/trust`,
  };
  await queueTrustNotice(ctx, tx, {
    acceptedBy: proposal.acceptedBy,
    key: `${proposal.ruleId}:revoked`,
    gateId: revocation.gateId,
    content,
  });
}

/** Queues a notice to the person who accepted a proposal, on each channel they chose. */
export async function queueTrustNotice(
  ctx: AppContext,
  tx: AuditedTx['tx'],
  notice: {
    acceptedBy: string | null;
    key: string;
    gateId: string | null;
    content: { subject: string; text: string; url: string };
  },
): Promise<void> {
  const { key, content } = notice;
  const configured = configuredChannels(ctx);
  const accepter = notice.acceptedBy?.replace(/^user:/, '') ?? null;
  if (configured.length === 0 || accepter === null) return;
  const person = await tx.getUser(accepter);
  if (person === null || person.disabled) return;
  const chosen: readonly NotificationChannelName[] =
    (await tx.getNotificationPreference(person.id))?.channels ?? configured;
  for (const channel of configured.filter((name) => chosen.includes(name))) {
    await tx.insertNotification({
      id: `ntf_${createHash('sha256').update(`${key}\n${person.id}\n${channel}`).digest('hex').slice(0, 24)}`,
      triggerId: key,
      trigger: TRUST_REVOKED_TRIGGER,
      gateId: notice.gateId ?? key,
      userId: person.id,
      channel,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: tx.now,
      claimedUntil: null,
      lastError: null,
      ref: null,
      data: JSON.stringify(content),
      createdAt: tx.now,
      updatedAt: tx.now,
      sentAt: null,
    });
  }
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
export async function revokeOnAnswer(ctx: AppContext, tools: AuditedTx<WorkTx>, gate: Gate): Promise<number> {
  const signal = signalOf(gate);
  if (signal === null) return 0;
  const accepted = await tools.tx.listTrustProposals({ status: ['accepted'], agentId: signal.agentId });
  let revoked = 0;
  for (const proposal of accepted) {
    if (proposal.kind !== 'scope') continue;
    if (!revokesLearnedRule(learnedScopeOf(proposal), signal)) continue;
    const reason = `a person ${signal.outcome === 'edited' ? 'edited' : signal.outcome} a call it covers (gate ${gate.id})`;
    const by = gate.decision?.decidedBy;
    const actor = by === undefined ? 'system' : by.includes(':') ? by : `user:${by}`;
    if (await revokeLearned(ctx, tools, proposal, { actor, reason, gateId: gate.id })) revoked += 1;
  }
  return revoked;
}
