import { GatehouseError, learnedRuleState } from 'gatehouse-hitl-core';
import type { LearnedRuleDocument, TrustProposalDocument } from 'gatehouse-hitl-protocol';
import type { TrustProposalRecord, TrustProposalStatus } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';
import type { PolicyService } from '../policy/policy-service.js';
import { type Accepted, type AcceptInput, acceptProposal } from './trust-acceptance.js';
import { documentOf, notFound, notProposed, ruleDocumentOf } from './trust-documents.js';
import { refreshProposals } from './trust-refresh.js';
import { revokeLearned } from './trust-revocation.js';

/** Proposals from the decision history; people accept, narrow, dismiss and revoke them. */
export interface TrustService {
  /** Brings proposals up to date with the history, then lists those in `status`. */
  proposals(options: { status: TrustProposalStatus | 'all' }): Promise<TrustProposalDocument[]>;
  accept(userId: string, id: string, input: AcceptInput): Promise<Accepted>;
  dismiss(userId: string, id: string, input: { reason?: string | undefined }): Promise<TrustProposalDocument>;
  rules(options: { includeEnded: boolean }): Promise<LearnedRuleDocument[]>;
  /** Ends a learned rule at once: a person revoked it, or reported a call it let through as harmful. */
  revoke(
    userId: string,
    ruleId: string,
    input: { reason?: string | undefined; harmful: boolean },
  ): Promise<LearnedRuleDocument>;
}

export interface TrustDeps {
  policies: PolicyService;
}

/** Creates the trust service. */
export function createTrustService(ctx: AppContext, deps: TrustDeps): TrustService {
  return {
    async proposals({ status }) {
      await refreshProposals(ctx, deps.policies);
      const all = await ctx.store.read((tx) =>
        tx.listTrustProposals(status === 'all' ? {} : { status: [status] }),
      );
      return all.map(documentOf);
    },

    async accept(userId, id, input) {
      return acceptProposal(ctx, deps.policies, { userId, id, input });
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
