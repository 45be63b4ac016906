import { type RememberedRule, type RuleScope, ruleRoutes } from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type { RememberedRule, RuleScope };

/** The rules in force (not revoked, not expired). */
export async function listRules(signal?: AbortSignal): Promise<RememberedRule[]> {
  const answer = await callApi(ruleRoutes.list, {}, signal);
  return answer.rules;
}

/** Revokes a rule at once; later calls of its tool open gates again. */
export async function revokeRule(id: string): Promise<RememberedRule> {
  const answer = await callApi(ruleRoutes.revoke, { params: { id } });
  return answer.rule;
}
