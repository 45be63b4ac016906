import type { RememberedRule, RuleListResponse, RuleResponse, RuleScope } from 'gatehouse-hitl-protocol';
import { api } from './client.js';

export type { RememberedRule, RuleScope };

/** The rules in force (not revoked, not expired). */
export async function listRules(signal?: AbortSignal): Promise<RememberedRule[]> {
  const answer = await api<RuleListResponse>('GET', '/v1/rules', signal ? { signal } : {});
  return answer.rules;
}

/** Revokes a rule at once; later calls of its tool open gates again. */
export async function revokeRule(id: string): Promise<RememberedRule> {
  const answer = await api<RuleResponse>('DELETE', `/v1/rules/${encodeURIComponent(id)}`);
  return answer.rule;
}
