import {
  type Action,
  type AutonomyProposalDraft,
  isGatehouseError,
  learnedRuleState,
  proposeTrust,
  replayLearnedScope,
  type TrustProposalDraft,
  type TrustThresholds,
} from 'gatehouse-hitl-core';
import type { TrustProposalRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { type AuditedTx, commit, type WorkTx } from '../commit.js';
import type { PolicyService } from '../policy/policy-service.js';
import { autonomyCandidatesOf, autonomyDraftsOf } from './autonomy-ramp.js';
import { describe } from './trust-documents.js';
import { historyOf, readEndedGates, thresholdsOf, windowStart } from './trust-history.js';

// Brings the stored proposals up to date with the decision history.

/** Drafts and the sample each was drawn from, computed from a read of the history. */
interface Computed {
  drafts: (TrustProposalDraft & { sample: Action })[];
  autonomy: AutonomyProposalDraft[];
  thresholds: TrustThresholds;
}

/** Proposes what the history now earns, records it, and lapses what it no longer supports. */
export async function refreshProposals(ctx: AppContext, policies: PolicyService): Promise<void> {
  const computed = await compute(ctx, policies);
  try {
    await commit(ctx, (tools) => record(ctx, tools, computed));
  } catch (error) {
    // Another node added the same proposal meanwhile; this refresh then finds it and updates it.
    if (!isGatehouseError(error) || error.code !== 'CONFLICT') throw error;
    await commit(ctx, (tools) => record(ctx, tools, computed));
  }
}

async function compute(ctx: AppContext, policies: PolicyService): Promise<Computed> {
  const limits = thresholdsOf(policies.current().policy);
  return ctx.store.read(async (tx) => {
    const gates = await readEndedGates(tx, windowStart(tx.now, limits));
    const agents = await tx.listAgents();
    const accepted = await tx.listTrustProposals({ status: ['accepted'] });
    const pinned = new Set(
      autonomyCandidatesOf(agents, accepted)
        .filter((agent) => agent.pinned)
        .map((agent) => agent.agentId),
    );
    const history = historyOf(gates);
    const drafts = proposeTrust({ history, now: tx.now, thresholds: limits, pinnedAgents: pinned });
    const settings = policies.current().policy.trust;
    return {
      thresholds: limits,
      autonomy: autonomyDraftsOf({ agents, accepted, gates, now: tx.now, settings }),
      drafts: drafts.map((draft) => {
        const { covered } = replayLearnedScope(draft, history, {
          now: tx.now,
          windowDays: limits.windowDays,
        });
        const sample = covered.find((entry) => entry.outcome === 'approved')?.action as Action;
        return { ...draft, sample };
      }),
    };
  });
}

/** Ends accepted proposals whose rule expired or was revoked as a remembered rule. */
async function settleAccepted(tools: AuditedTx<WorkTx>, accepted: TrustProposalRecord[]): Promise<void> {
  const { tx } = tools;
  for (const record of accepted) {
    const rule = record.ruleId === null ? null : await tx.getRememberedRule(record.ruleId);
    const state = rule === null ? 'revoked' : learnedRuleState(rule, tx.now);
    if (state === 'active') continue;
    const next: TrustProposalRecord = {
      ...record,
      status: state,
      updatedAt: tx.now,
      revokedReason: state === 'revoked' ? (record.revokedReason ?? 'revoked as a remembered rule') : null,
    };
    if (!(await tx.updateTrustProposal(next, 'accepted'))) continue;
    if (state === 'expired')
      await tools.audit({
        kind: 'trust.rule_expired',
        actor: 'system',
        subject: record.ruleId,
        data: { proposalId: record.id, expiresAt: record.expiresAt },
      });
  }
}

async function record(ctx: AppContext, tools: AuditedTx<WorkTx>, computed: Computed): Promise<void> {
  const { tx } = tools;
  const existing = await tx.listTrustProposals({});
  await settleAccepted(
    tools,
    existing.filter((p) => p.status === 'accepted' && p.kind === 'scope'),
  );
  const byKey = new Map<string, TrustProposalRecord[]>();
  for (const p of existing) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p]);
  const drafted = new Set([...computed.drafts, ...computed.autonomy].map((draft) => draft.key));
  for (const draft of computed.autonomy) await recordAutonomy(ctx, tools, draft, byKey.get(draft.key) ?? []);
  for (const draft of computed.drafts) {
    const evidence = { evidence: draft.evidence, replay: draft.replay, sample: draft.sample };
    const same = byKey.get(draft.key) ?? [];
    const open = same.find((p) => p.status === 'proposed');
    if (open !== undefined) {
      await tx.updateTrustProposal({ ...open, evidence, updatedAt: tx.now }, 'proposed');
      continue;
    }
    // Dismissed, accepted and revoked ones stay decided; only an expired rule may be earned again.
    if (same.some((p) => p.status !== 'expired')) continue;
    const created = newProposal(ctx, tx.now, {
      key: draft.key,
      agentId: draft.agentId,
      tool: draft.tool,
      scope: draft.scope,
      evidence,
      kind: 'scope',
      autonomy: null,
    });
    await insertProposal(tools, created, draft.description);
  }
  // A proposal the history no longer supports (a rejection came in, the window moved) lapses.
  for (const p of existing)
    if (p.status === 'proposed' && !drafted.has(p.key))
      await tx.updateTrustProposal(
        { ...p, status: 'expired', updatedAt: tx.now, revokedReason: 'the history no longer supports it' },
        'proposed',
      );
}

async function recordAutonomy(
  ctx: AppContext,
  tools: AuditedTx<WorkTx>,
  draft: AutonomyProposalDraft,
  same: readonly TrustProposalRecord[],
): Promise<void> {
  const { tx } = tools;
  const { gateIds, windowDays, ...summary } = draft.evidence;
  // The replay of an autonomy step is its phase reviews in the window; any turned down means no proposal.
  const replay = {
    windowDays,
    wouldAllow: summary.approvals,
    rejected: 0,
    steered: 0,
    edited: 0,
    failed: 0,
    gateIds,
  };
  const evidence = { evidence: summary, replay };
  const open = same.find((p) => p.status === 'proposed');
  if (open !== undefined) {
    await tx.updateTrustProposal({ ...open, evidence, updatedAt: tx.now }, 'proposed');
    return;
  }
  if (same.length > 0) return;
  const created = newProposal(ctx, tx.now, {
    key: draft.key,
    agentId: draft.agentId,
    tool: '',
    scope: { kind: 'tool' },
    evidence,
    kind: 'autonomy',
    autonomy: { from: draft.from, to: draft.to },
  });
  await insertProposal(tools, created, describe(created));
}

type ProposalFields = Pick<
  TrustProposalRecord,
  'key' | 'agentId' | 'tool' | 'scope' | 'evidence' | 'kind' | 'autonomy'
>;

/** A new proposal, nobody's decision yet. */
function newProposal(ctx: AppContext, now: number, fields: ProposalFields): TrustProposalRecord {
  return {
    ...fields,
    id: ctx.ids.next('tp'),
    acceptedScope: null,
    status: 'proposed',
    createdAt: now,
    updatedAt: now,
    decidedBy: null,
    acceptedBy: null,
    ruleId: null,
    expiresAt: null,
    policyVersion: null,
    revokedReason: null,
  };
}

async function insertProposal(
  tools: AuditedTx<WorkTx>,
  created: TrustProposalRecord,
  description: string,
): Promise<void> {
  await tools.tx.insertTrustProposal(created);
  await tools.audit({
    kind: 'trust.proposed',
    actor: 'system',
    subject: created.id,
    data: { agentId: created.agentId, description, ...created.evidence },
  });
}
