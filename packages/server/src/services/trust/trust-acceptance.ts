import {
  describeStandingScope,
  GatehouseError,
  LEARNED_RULE_PREFIX,
  narrowingRefusal,
  replayLearnedScope,
  type StandingScope,
  standingScopeRefusal,
  toIso,
} from 'gatehouse-hitl-core';
import type { LearnedRuleDocument, TrustProposalDocument } from 'gatehouse-hitl-protocol';
import type { RememberedRule, TrustProposalRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { type AuditedTx, commit, type WorkTx } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { changeAutonomy } from '../people/agents.js';
import type { PolicyService } from '../policy/policy-service.js';
import { autonomyCandidatesOf, autonomyDraftsOf } from './autonomy-ramp.js';
import { describe, documentOf, notFound, notProposed, ruleDocumentOf, stored } from './trust-documents.js';
import { historyOf, readEndedGates, thresholdsOf, windowStart } from './trust-history.js';

// A person accepting a proposal: a learned rule for a scope, or an agent's autonomy step.

const DAY = 86_400_000;

export interface AcceptInput {
  scope?: StandingScope | undefined;
  days?: number | undefined;
}

export interface Accepted {
  proposal: TrustProposalDocument;
  rule: LearnedRuleDocument | null;
}

/** Accepts a proposal once the history still earns it; a scope one may be narrowed and given its days. */
export async function acceptProposal(
  ctx: AppContext,
  policies: PolicyService,
  request: { userId: string; id: string; input: AcceptInput },
): Promise<Accepted> {
  const { userId, id, input } = request;
  const record = await load(ctx, id);
  if (record.status !== 'proposed') throw notProposed(record);
  if (record.kind === 'autonomy') {
    if (input.scope !== undefined || input.days !== undefined)
      throw invalidInput('scope', 'an autonomy proposal takes no scope or days; accept it as proposed');
    await checkAutonomyEarned(ctx, policies, record);
    const actor = `user:${userId}`;
    const accepted = await commit(ctx, (tools) => acceptAutonomyInCommit(tools, { actor, id }));
    return { proposal: documentOf(accepted), rule: null };
  }
  const scope = chosenScope(record, input.scope);
  await checkStillEarned(ctx, policies, record, scope);
  const days = input.days ?? thresholdsOf(policies.current().policy).ruleDays;
  const actor = `user:${userId}`;
  const accepted = await commit(ctx, (tools) =>
    acceptInCommit(ctx, policies, tools, { actor, id, scope, days }),
  );
  // This node takes up the version it wrote now; others within one poll.
  await policies.get();
  return {
    proposal: documentOf(accepted.record),
    rule: ruleDocumentOf(accepted.record, accepted.rule, accepted.rule.createdAt),
  };
}

async function load(ctx: AppContext, id: string): Promise<TrustProposalRecord> {
  const found = await ctx.store.read((tx) => tx.getTrustProposal(id));
  if (found === null) throw notFound(id);
  return found;
}

/** The history must still earn the step when a person accepts it: same level, no pin, nothing turned down. */
async function checkAutonomyEarned(
  ctx: AppContext,
  policies: PolicyService,
  record: TrustProposalRecord,
): Promise<void> {
  const limits = thresholdsOf(policies.current().policy);
  const settings = policies.current().policy.trust;
  const drafts = await ctx.store.read(async (tx) => {
    const gates = await readEndedGates(tx, windowStart(tx.now, limits));
    const agents = await tx.listAgents();
    const accepted = await tx.listTrustProposals({ status: ['accepted'] });
    return autonomyDraftsOf({ agents, accepted, gates, now: tx.now, settings });
  });
  if (!drafts.some((draft) => draft.key === record.key))
    throw new GatehouseError(
      'CONFLICT',
      `agent ${record.agentId}'s phase reviews no longer earn this step (a review was turned down, its level changed or a person pinned it); it is not accepted`,
      { id: record.id, agentId: record.agentId },
    );
}

async function acceptAutonomyInCommit(
  tools: AuditedTx<WorkTx>,
  input: { actor: string; id: string },
): Promise<TrustProposalRecord> {
  const { tx } = tools;
  const current = await tx.getTrustProposal(input.id);
  if (current === null) throw notFound(input.id);
  if (current.status !== 'proposed' || current.autonomy === null) throw notProposed(current);
  const agent = await tx.getAgent(current.agentId);
  const next: TrustProposalRecord = {
    ...current,
    status: 'accepted',
    decidedBy: input.actor,
    acceptedBy: input.actor,
    evidence: { ...current.evidence, previous: agent?.autonomy ?? null },
    updatedAt: tx.now,
  };
  if (!(await tx.updateTrustProposal(next, 'proposed'))) throw notProposed(current);
  await changeAutonomy(tools, {
    actor: input.actor,
    agentId: current.agentId,
    autonomy: current.autonomy.to,
    data: { proposalId: current.id, evidence: stored(current).evidence },
  });
  await tools.audit({
    kind: 'trust.accepted',
    actor: input.actor,
    subject: current.id,
    data: {
      kind: 'autonomy',
      agentId: current.agentId,
      from: current.autonomy.from,
      to: current.autonomy.to,
      description: describe(current),
      evidence: stored(current).evidence,
      replay: stored(current).replay,
    },
  });
  return next;
}

function chosenScope(record: TrustProposalRecord, scope: StandingScope | undefined): StandingScope {
  if (scope === undefined) return record.scope;
  const { sample } = stored(record);
  const refusal = narrowingRefusal(record.scope, scope, sample) ?? standingScopeRefusal(scope, sample);
  if (refusal !== null) throw invalidInput('scope', refusal);
  return scope;
}

/** The history must still support the scope a person accepts: nothing it covers was turned down since. */
async function checkStillEarned(
  ctx: AppContext,
  policies: PolicyService,
  record: TrustProposalRecord,
  scope: StandingScope,
): Promise<void> {
  const limits = thresholdsOf(policies.current().policy);
  const replay = await ctx.store.read(async (tx) => {
    const agent = await tx.getAgent(record.agentId);
    const accepted = await tx.listTrustProposals({ status: ['accepted'] });
    if (agent !== null && autonomyCandidatesOf([agent], accepted)[0]?.pinned === true)
      throw new GatehouseError(
        'CONFLICT',
        `a person pinned agent ${record.agentId}'s autonomy; nothing is learned for it`,
        { id: record.id, agentId: record.agentId },
      );
    const gates = await readEndedGates(tx, windowStart(tx.now, limits));
    const rule = { agentId: record.agentId, tool: record.tool, scope };
    return replayLearnedScope(rule, historyOf(gates), { now: tx.now, windowDays: limits.windowDays });
  });
  const against = replay.rejected + replay.steered + replay.edited + replay.failed;
  if (against > 0)
    throw new GatehouseError(
      'CONFLICT',
      `people turned down ${against} call(s) this scope covers since it was proposed; it is not accepted`,
      { id: record.id, rejected: replay.rejected, steered: replay.steered, edited: replay.edited },
    );
}

async function writePolicyVersion(
  policies: PolicyService,
  tools: AuditedTx<WorkTx>,
  note: { actor: string; ruleId: string; line: string },
): Promise<number | null> {
  const { tx } = tools;
  const active = await tx.getActivePolicy();
  if (active === null) return null;
  const source = active.format === 'yaml' ? `${active.source.trimEnd()}\n# ${note.line}\n` : active.source;
  const inserted = await tx.insertPolicyVersion({
    source,
    format: active.format,
    createdBy: note.actor,
    createdAt: tx.now,
  });
  await tools.audit({
    kind: 'policy.replaced',
    actor: note.actor,
    subject: 'policy',
    data: {
      version: inserted.version,
      previousVersion: active.version,
      name: policies.current().name,
      learnedRuleId: note.ruleId,
    },
  });
  return inserted.version;
}

async function acceptInCommit(
  ctx: AppContext,
  policies: PolicyService,
  tools: AuditedTx<WorkTx>,
  input: { actor: string; id: string; scope: StandingScope; days: number },
): Promise<{ record: TrustProposalRecord; rule: RememberedRule }> {
  const { tx } = tools;
  const current = await tx.getTrustProposal(input.id);
  if (current === null) throw notFound(input.id);
  if (current.status !== 'proposed') throw notProposed(current);
  const description = describeStandingScope(current.tool, input.scope);
  const rule: RememberedRule = {
    id: ctx.ids.next(LEARNED_RULE_PREFIX),
    scope: 'agent',
    runId: null,
    agentId: current.agentId,
    tool: current.tool,
    argsHash: null,
    match: input.scope,
    createdBy: input.actor,
    createdAt: tx.now,
    expiresAt: tx.now + input.days * DAY,
    revokedAt: null,
    revokedBy: null,
    sourceGateId: null,
  };
  await tx.insertRememberedRule(rule);
  const policyVersion = await writePolicyVersion(policies, tools, {
    actor: input.actor,
    ruleId: rule.id,
    line: `learned rule ${rule.id}: allow ${description} for agent ${current.agentId}, accepted by ${input.actor} until ${toIso(rule.expiresAt as number)}`,
  });
  const next: TrustProposalRecord = {
    ...current,
    status: 'accepted',
    acceptedScope: input.scope,
    decidedBy: input.actor,
    acceptedBy: input.actor,
    ruleId: rule.id,
    expiresAt: rule.expiresAt,
    policyVersion,
    updatedAt: tx.now,
  };
  if (!(await tx.updateTrustProposal(next, 'proposed'))) throw notProposed(current);
  await tools.audit({
    kind: 'trust.accepted',
    actor: input.actor,
    subject: current.id,
    data: {
      ruleId: rule.id,
      agentId: current.agentId,
      tool: current.tool,
      proposedScope: current.scope,
      scope: input.scope,
      description,
      expiresAt: rule.expiresAt,
      policyVersion,
      evidence: stored(current).evidence,
      replay: stored(current).replay,
    },
  });
  return { record: next, rule };
}
