import {
  type Action,
  type AutonomyProposalDraft,
  describeStandingScope,
  GatehouseError,
  isGatehouseError,
  LEARNED_RULE_PREFIX,
  learnedRuleState,
  narrowingRefusal,
  proposeTrust,
  replayLearnedScope,
  type StandingScope,
  standingScopeRefusal,
  type TrustProposalDraft,
  type TrustThresholds,
  toIso,
} from 'gatehouse-hitl-core';
import type { LearnedRuleDocument, TrustProposalDocument } from 'gatehouse-hitl-protocol';
import type { RememberedRule, TrustProposalRecord, TrustProposalStatus } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { type AuditedTx, commit, type WorkTx } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { changeAutonomy } from '../people/agents.js';
import type { PolicyService } from '../policy/policy-service.js';
import { autonomyCandidatesOf, autonomyDraftsOf } from './autonomy-ramp.js';
import { describe, documentOf, notFound, notProposed, ruleDocumentOf, stored } from './trust-documents.js';
import { historyOf, readEndedGates, thresholdsOf, windowStart } from './trust-history.js';
import { revokeLearned } from './trust-revocation.js';

const DAY = 86_400_000;

/** Proposals from the decision history; people accept, narrow, dismiss and revoke them. */
export interface TrustService {
  /** Brings proposals up to date with the history, then lists those in `status`. */
  proposals(options: { status: TrustProposalStatus | 'all' }): Promise<TrustProposalDocument[]>;
  accept(
    userId: string,
    id: string,
    input: { scope?: StandingScope | undefined; days?: number | undefined },
  ): Promise<{ proposal: TrustProposalDocument; rule: LearnedRuleDocument | null }>;
  dismiss(userId: string, id: string, input: { reason?: string | undefined }): Promise<TrustProposalDocument>;
  rules(options: { includeEnded: boolean }): Promise<LearnedRuleDocument[]>;
  /** Ends a learned rule at once: a person revoked it, or reported a call it let through as harmful. */
  revoke(
    userId: string,
    ruleId: string,
    input: { reason?: string | undefined; harmful: boolean },
  ): Promise<LearnedRuleDocument>;
}

/** Drafts and the sample each was drawn from, computed from a read of the history. */
interface Computed {
  drafts: (TrustProposalDraft & { sample: Action })[];
  autonomy: AutonomyProposalDraft[];
  thresholds: TrustThresholds;
}

export interface TrustDeps {
  policies: PolicyService;
}

/** Creates the trust service. */
export function createTrustService(ctx: AppContext, deps: TrustDeps): TrustService {
  const thresholds = () => thresholdsOf(deps.policies.current().policy);

  async function compute(): Promise<Computed> {
    const limits = thresholds();
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
      const settings = deps.policies.current().policy.trust;
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

  async function record(tools: AuditedTx<WorkTx>, computed: Computed): Promise<void> {
    const { tx } = tools;
    const existing = await tx.listTrustProposals({});
    await settleAccepted(
      tools,
      existing.filter((p) => p.status === 'accepted' && p.kind === 'scope'),
    );
    const byKey = new Map<string, TrustProposalRecord[]>();
    for (const p of existing) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p]);
    const drafted = new Set([...computed.drafts, ...computed.autonomy].map((draft) => draft.key));
    for (const draft of computed.autonomy) await recordAutonomy(tools, draft, byKey.get(draft.key) ?? []);
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
      const created: TrustProposalRecord = {
        id: ctx.ids.next('tp'),
        key: draft.key,
        agentId: draft.agentId,
        tool: draft.tool,
        scope: draft.scope,
        acceptedScope: null,
        status: 'proposed',
        evidence,
        createdAt: tx.now,
        updatedAt: tx.now,
        decidedBy: null,
        acceptedBy: null,
        ruleId: null,
        expiresAt: null,
        policyVersion: null,
        revokedReason: null,
        kind: 'scope',
        autonomy: null,
      };
      await tx.insertTrustProposal(created);
      await tools.audit({
        kind: 'trust.proposed',
        actor: 'system',
        subject: created.id,
        data: { agentId: draft.agentId, description: draft.description, ...evidence },
      });
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
    const created: TrustProposalRecord = {
      id: ctx.ids.next('tp'),
      key: draft.key,
      agentId: draft.agentId,
      tool: '',
      scope: { kind: 'tool' },
      acceptedScope: null,
      status: 'proposed',
      evidence,
      createdAt: tx.now,
      updatedAt: tx.now,
      decidedBy: null,
      acceptedBy: null,
      ruleId: null,
      expiresAt: null,
      policyVersion: null,
      revokedReason: null,
      kind: 'autonomy',
      autonomy: { from: draft.from, to: draft.to },
    };
    await tx.insertTrustProposal(created);
    await tools.audit({
      kind: 'trust.proposed',
      actor: 'system',
      subject: created.id,
      data: { agentId: draft.agentId, description: describe(created), ...evidence },
    });
  }

  /** The history must still earn the step when a person accepts it: same level, no pin, nothing turned down. */
  async function checkAutonomyEarned(record: TrustProposalRecord): Promise<void> {
    const limits = thresholds();
    const settings = deps.policies.current().policy.trust;
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

  async function refresh(): Promise<void> {
    const computed = await compute();
    try {
      await commit(ctx, (tools) => record(tools, computed));
    } catch (error) {
      // Another node added the same proposal meanwhile; this refresh then finds it and updates it.
      if (!isGatehouseError(error) || error.code !== 'CONFLICT') throw error;
      await commit(ctx, (tools) => record(tools, computed));
    }
  }

  async function load(id: string): Promise<TrustProposalRecord> {
    const found = await ctx.store.read((tx) => tx.getTrustProposal(id));
    if (found === null) throw notFound(id);
    return found;
  }

  function chosenScope(record: TrustProposalRecord, scope: StandingScope | undefined): StandingScope {
    if (scope === undefined) return record.scope;
    const { sample } = stored(record);
    const refusal = narrowingRefusal(record.scope, scope, sample) ?? standingScopeRefusal(scope, sample);
    if (refusal !== null) throw invalidInput('scope', refusal);
    return scope;
  }

  /** The history must still support the scope a person accepts: nothing it covers was turned down since. */
  async function checkStillEarned(record: TrustProposalRecord, scope: StandingScope): Promise<void> {
    const limits = thresholds();
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
        name: deps.policies.current().name,
        learnedRuleId: note.ruleId,
      },
    });
    return inserted.version;
  }

  async function acceptInCommit(
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
    const policyVersion = await writePolicyVersion(tools, {
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

  return {
    async proposals({ status }) {
      await refresh();
      const all = await ctx.store.read((tx) =>
        tx.listTrustProposals(status === 'all' ? {} : { status: [status] }),
      );
      return all.map(documentOf);
    },

    async accept(userId, id, input) {
      const record = await load(id);
      if (record.status !== 'proposed') throw notProposed(record);
      if (record.kind === 'autonomy') {
        if (input.scope !== undefined || input.days !== undefined)
          throw invalidInput('scope', 'an autonomy proposal takes no scope or days; accept it as proposed');
        await checkAutonomyEarned(record);
        const actor = `user:${userId}`;
        const accepted = await commit(ctx, (tools) => acceptAutonomyInCommit(tools, { actor, id }));
        return { proposal: documentOf(accepted), rule: null };
      }
      const scope = chosenScope(record, input.scope);
      await checkStillEarned(record, scope);
      const days = input.days ?? thresholds().ruleDays;
      const actor = `user:${userId}`;
      const accepted = await commit(ctx, (tools) => acceptInCommit(tools, { actor, id, scope, days }));
      // This node takes up the version it wrote now; others within one poll.
      await deps.policies.get();
      return {
        proposal: documentOf(accepted.record),
        rule: ruleDocumentOf(accepted.record, accepted.rule, accepted.rule.createdAt),
      };
    },

    async dismiss(userId, id, input) {
      const actor = `user:${userId}`;
      const record = await commit(ctx, async ({ tx, audit }) => {
        const current = await tx.getTrustProposal(id);
        if (current === null) throw notFound(id);
        if (current.status !== 'proposed') throw notProposed(current);
        const next: TrustProposalRecord = {
          ...current,
          status: 'dismissed',
          decidedBy: actor,
          revokedReason: input.reason ?? null,
          updatedAt: tx.now,
        };
        if (!(await tx.updateTrustProposal(next, 'proposed'))) throw notProposed(current);
        await audit({
          kind: 'trust.dismissed',
          actor,
          subject: id,
          data: { agentId: current.agentId, scope: current.scope, reason: input.reason ?? null },
        });
        return next;
      });
      return documentOf(record);
    },

    async rules({ includeEnded }) {
      return ctx.store.read(async (tx) => {
        const records = await tx.listTrustProposals({ status: ['accepted', 'expired', 'revoked'] });
        const rules = new Map(
          (await tx.listRememberedRules({ includeRevoked: true })).map((rule) => [rule.id, rule]),
        );
        const documents: LearnedRuleDocument[] = [];
        for (const record of records) {
          const rule = record.ruleId === null ? undefined : rules.get(record.ruleId);
          if (rule === undefined) continue;
          const document = ruleDocumentOf(record, rule, tx.now);
          if (includeEnded || document.state === 'active') documents.push(document);
        }
        return documents;
      });
    },

    async revoke(userId, ruleId, input) {
      const actor = `user:${userId}`;
      const reason = input.harmful
        ? `reported harmful${input.reason === undefined ? '' : `: ${input.reason}`}`
        : (input.reason ?? 'revoked by a person');
      const revoked = await commit(ctx, async (tools) => {
        const { tx } = tools;
        const records = await tx.listTrustProposals({ status: ['accepted', 'expired', 'revoked'] });
        const record = records.find((p) => p.ruleId === ruleId);
        const rule = await tx.getRememberedRule(ruleId);
        if (record === undefined || rule === null)
          throw new GatehouseError('NOT_FOUND', `no learned rule ${ruleId}`, { field: 'id', id: ruleId });
        if (record.status !== 'accepted' || learnedRuleState(rule, tx.now) !== 'active')
          throw new GatehouseError('INVALID_TRANSITION', `learned rule ${ruleId} is no longer in force`, {
            id: ruleId,
            state: learnedRuleState(rule, tx.now),
          });
        if (!(await revokeLearned(ctx, tools, record, { actor, reason, gateId: null })))
          throw new GatehouseError('INVALID_TRANSITION', `learned rule ${ruleId} is no longer in force`, {
            id: ruleId,
          });
        const after = { ...record, status: 'revoked' as const, revokedReason: reason, decidedBy: actor };
        return ruleDocumentOf(after, { ...rule, revokedAt: tx.now, revokedBy: actor }, tx.now);
      });
      ctx.notices.notify();
      return revoked;
    },
  };
}
