import {
  type Action,
  alwaysRefusal,
  describeStandingScope,
  type Gate,
  GatehouseError,
  type IdGenerator,
  type StandingScope,
  standingScopeCovers,
  suggestStandingScopes,
} from 'gatehouse-hitl-core';
import type { RememberedRule as RuleDocument, StandingScopes } from 'gatehouse-hitl-protocol';
import type { RememberedRule, RulesRepo, TxClock } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { type AuditedTx, commit } from '../commit.js';

/** Remembered "approve always" rules: visible, revocable, audited. */
export interface RuleService {
  /** Rules in force (not revoked, not expired), or every rule with `includeRevoked`. */
  list(options: { includeRevoked?: boolean }): Promise<RuleDocument[]>;
  revoke(userId: string, ruleId: string): Promise<RuleDocument>;
}

/** The call a request makes and where it runs: what a remembered rule must match. */
export interface RuleTarget {
  tool: string;
  /** The call itself (tool and arguments), which the rule's scope must cover. */
  action: Action;
  runId: string | null;
  agentId: string;
}

// A rule stored before scopes covers the whole tool, which core lets through only for calls with nothing to tell apart.
const WHOLE_TOOL: StandingScope = { kind: 'tool' };

/** What a rule covers, as people read it: `bash(npm test:*)`. */
export function describeRule(rule: Pick<RememberedRule, 'tool' | 'match'>): string {
  return describeStandingScope(rule.tool, rule.match ?? WHOLE_TOOL);
}

/** A rule as the API returns it: with what it covers in words. */
export function ruleDocument(rule: RememberedRule): RuleDocument {
  return { ...rule, description: describeRule(rule) };
}

/** The scopes "approve always" may remember for a gate that offers it, or why none; null when it does not. */
export function standingScopesOf(gate: Pick<Gate, 'action' | 'options'>): StandingScopes | null {
  const tool = gate.action?.tool;
  if (tool === undefined || !gate.options.some((option) => option.id === 'approve_always')) return null;
  const refusal = alwaysRefusal(gate);
  if (refusal !== null || gate.action === null) return { options: [], refusal };
  const options = suggestStandingScopes(gate.action).options.map((match) => ({
    match,
    description: describeStandingScope(tool, match),
  }));
  return { options, refusal: null };
}

function inForce(rule: RememberedRule, now: number): boolean {
  return rule.revokedAt === null && (rule.expiresAt === null || rule.expiresAt > now);
}

function appliesHere(rule: RememberedRule, target: RuleTarget): boolean {
  switch (rule.scope) {
    case 'run':
      return target.runId !== null && rule.runId === target.runId;
    case 'agent':
      return rule.agentId === target.agentId;
    case 'global':
      return true;
  }
}

function covers(rule: RememberedRule, target: RuleTarget): boolean {
  if (rule.tool !== target.tool) return false;
  return appliesHere(rule, target) && standingScopeCovers(rule.match ?? WHOLE_TOOL, target.action);
}

/** The remembered rule that lets this call through here, read inside the caller's transaction. */
export async function findRememberedRule(
  tx: RulesRepo & TxClock,
  target: RuleTarget,
): Promise<RememberedRule | null> {
  const rules = await tx.listRulesInForce(target.tool, tx.now);
  return rules.find((rule) => covers(rule, target)) ?? null;
}

/** What an "approve always" decision remembers. */
export interface NewRule {
  scope: RememberedRule['scope'];
  tool: string;
  match: StandingScope;
  runId: string | null;
  agentId: string | null;
  createdBy: string;
  ttlSeconds: number | null;
  sourceGateId: string;
}

/** Inserts a remembered rule inside the caller's transaction and audits `rule.created`. */
export async function insertRememberedRule(
  tools: AuditedTx<RulesRepo & TxClock>,
  ids: IdGenerator,
  input: NewRule,
): Promise<RememberedRule> {
  const { tx } = tools;
  const rule: RememberedRule = {
    id: ids.next('rule'),
    scope: input.scope,
    runId: input.scope === 'run' ? input.runId : null,
    agentId: input.scope === 'global' ? null : input.agentId,
    tool: input.tool,
    argsHash: null,
    match: input.match,
    createdBy: input.createdBy,
    createdAt: tx.now,
    expiresAt: input.ttlSeconds === null ? null : tx.now + input.ttlSeconds * 1000,
    revokedAt: null,
    revokedBy: null,
    sourceGateId: input.sourceGateId,
  };
  await tx.insertRememberedRule(rule);
  await tools.audit({
    kind: 'rule.created',
    actor: input.createdBy,
    subject: rule.id,
    data: {
      scope: rule.scope,
      tool: rule.tool,
      match: rule.match,
      description: describeRule(rule),
      runId: rule.runId,
      agentId: rule.agentId,
      expiresAt: rule.expiresAt,
      sourceGateId: rule.sourceGateId,
    },
  });
  return rule;
}

/** Creates the remembered-rule service. */
export function createRuleService(ctx: AppContext): RuleService {
  return {
    async list(options) {
      return ctx.store.read(async (tx) => {
        const rules = await tx.listRememberedRules({ includeRevoked: options.includeRevoked === true });
        const shown = options.includeRevoked === true ? rules : rules.filter((rule) => inForce(rule, tx.now));
        return shown.map(ruleDocument);
      });
    },

    async revoke(userId, ruleId) {
      const actor = `user:${userId}`;
      return commit(ctx, async ({ tx, audit }) => {
        const rule = await tx.getRememberedRule(ruleId);
        if (rule === null) throw new GatehouseError('NOT_FOUND', `no remembered rule ${ruleId}`, { ruleId });
        if (!(await tx.revokeRememberedRule(ruleId, actor, tx.now))) {
          throw new GatehouseError('INVALID_TRANSITION', `rule ${ruleId} is already revoked`, {
            ruleId,
            revokedAt: rule.revokedAt,
            revokedBy: rule.revokedBy,
          });
        }
        await audit({
          kind: 'rule.revoked',
          actor,
          subject: ruleId,
          data: { tool: rule.tool, scope: rule.scope, match: rule.match, description: describeRule(rule) },
        });
        return ruleDocument({ ...rule, revokedAt: tx.now, revokedBy: actor });
      });
    },
  };
}
