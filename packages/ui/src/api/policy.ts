import type { PolicyIssue, RiskLevel, Role, TimeoutAction } from 'gatehouse-hitl-core';
import { ApiError, api } from './client.js';

export type { PolicyIssue } from 'gatehouse-hitl-core';

export type PolicyFormat = 'yaml' | 'json';

/** The active policy as `GET /v1/policy` shows it. */
export interface ActivePolicy {
  version: number;
  format: PolicyFormat;
  createdBy: string;
  createdAt: number;
  source: string;
  name: string;
  /** Why the stored policy does not load (every request is gated meanwhile). */
  failure: string | null;
}

export interface PolicyVersionSummary {
  version: number;
  format: PolicyFormat;
  createdBy: string;
  createdAt: number;
}

export type PolicyVersion = PolicyVersionSummary & { source: string };

/** A request as an agent would send it, for a dry run; anything left out is absent. */
export interface DryRunRequest {
  event?: string;
  tool?: string;
  operation?: string;
  args?: Record<string, unknown>;
  risk?: RiskLevel;
  confidence?: number;
  gateType?: string;
  agent?: { id: string; profile?: string | null };
  run?: { id: string; autonomy: string; approvalMode: string; confidenceThreshold?: number };
  impact?: { files?: string[]; resources?: string[] };
}

/** What a request would meet: the deciding rule, the outcome and the gate it would open. */
export interface DryRunResult {
  decision: {
    action: 'allow' | 'deny' | 'gate';
    ruleId: string | null;
    reason: string;
    matched: string[];
    evaluatedConditions: number;
    errors: { ruleId: string; message: string }[];
    alwaysGated?: string[];
  };
  outcome: 'allowed' | 'denied' | 'gated';
  via: 'policy' | 'remembered_rule' | 'approval_mode';
  ruleId: string | null;
  reason: string;
  rememberedRuleId: string | null;
  gate: {
    type: string;
    risk: RiskLevel;
    threshold: string;
    timeoutSeconds: number | null;
    timeoutAction: TimeoutAction;
    minRole: Role;
    requiredApprovals: number;
    signatureRequired: boolean;
    assignees: string[];
    escalationChain: Role[];
  } | null;
  policyVersion: number | null;
}

export function getPolicy(signal?: AbortSignal): Promise<ActivePolicy> {
  return api<ActivePolicy>('GET', '/v1/policy', signal ? { signal } : {});
}

/** Stores a new version (admin); the server validates it first and answers POLICY_INVALID otherwise. */
export function savePolicy(
  source: string,
  format: PolicyFormat,
): Promise<ActivePolicy & { previousVersion: number | null }> {
  return api('PUT', '/v1/policy', { body: { source, format } });
}

/** A request the server can evaluate against any policy; only the validation matters. */
const PROBE: DryRunRequest = { tool: 'read_file', args: {} };

/** Validates `source` without storing it: a dry run against it compiles it, or fails with POLICY_INVALID. */
export async function validatePolicy(source: string, format: PolicyFormat): Promise<void> {
  await api('POST', '/v1/policy/dry-run', { body: { request: PROBE, source, format } });
}

/** What `request` would meet under the active policy, or under `source` when given. */
export function dryRun(
  request: DryRunRequest,
  draft?: { source: string; format: PolicyFormat },
): Promise<DryRunResult> {
  return api<DryRunResult>('POST', '/v1/policy/dry-run', { body: { request, ...(draft ?? {}) } });
}

export async function listPolicyVersions(signal?: AbortSignal): Promise<PolicyVersionSummary[]> {
  const answer = await api<{ versions: PolicyVersionSummary[] }>(
    'GET',
    '/v1/policy/versions',
    signal ? { signal } : {},
  );
  return answer.versions;
}

export function getPolicyVersion(version: number, signal?: AbortSignal): Promise<PolicyVersion> {
  return api<PolicyVersion>('GET', `/v1/policy/versions/${version}`, signal ? { signal } : {});
}

/** The rule-by-rule problems of a POLICY_INVALID answer; null for any other error. */
export function policyIssuesOf(error: unknown): PolicyIssue[] | null {
  if (!(error instanceof ApiError) || error.code !== 'POLICY_INVALID') return null;
  const list = error.details.errors ?? error.details.issues;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (issue): issue is PolicyIssue =>
      typeof issue === 'object' && issue !== null && typeof (issue as PolicyIssue).message === 'string',
  );
}
