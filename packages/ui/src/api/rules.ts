import { api } from './client.js';

/** Where a remembered rule applies. */
export type RuleScope = 'run' | 'agent' | 'global';

/** A remembered "approve always" rule: calls of `tool` in its scope go ahead without a gate. */
export interface RememberedRule {
  id: string;
  scope: RuleScope;
  runId: string | null;
  agentId: string | null;
  tool: string;
  /** Bound to these exact arguments; null allows any arguments. */
  argsHash: string | null;
  createdBy: string;
  createdAt: number;
  /** Null: until revoked. */
  expiresAt: number | null;
  revokedAt: number | null;
  revokedBy: string | null;
  sourceGateId: string | null;
}

/** The rules in force (not revoked, not expired). */
export async function listRules(signal?: AbortSignal): Promise<RememberedRule[]> {
  const answer = await api<{ rules: RememberedRule[] }>('GET', '/v1/rules', signal ? { signal } : {});
  return answer.rules;
}

/** Revokes a rule at once; later calls of its tool open gates again. */
export async function revokeRule(id: string): Promise<RememberedRule> {
  const answer = await api<{ rule: RememberedRule }>('DELETE', `/v1/rules/${encodeURIComponent(id)}`);
  return answer.rule;
}
