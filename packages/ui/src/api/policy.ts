import type { PolicyIssue } from 'gatehouse-hitl-core';
import {
  type DryRunRequest,
  type DryRunResponse,
  type PolicyFormat,
  type PolicyVersionResponse,
  type PolicyVersionSummary,
  type PolicyView,
  policyRoutes,
  type ReplacePolicyResponse,
} from 'gatehouse-hitl-protocol';
import { ApiError, callApi } from './client.js';

export type { PolicyIssue } from 'gatehouse-hitl-core';

/** The active policy as `GET /v1/policy` shows it. */
export type ActivePolicy = PolicyView;

export type PolicyVersion = PolicyVersionResponse;

/** What a request would meet: the deciding rule, the outcome and the gate it would open. */
export type DryRunResult = DryRunResponse;

export type { DryRunRequest, PolicyFormat, PolicyVersionSummary };

export function getPolicy(signal?: AbortSignal): Promise<ActivePolicy> {
  return callApi(policyRoutes.get, {}, signal);
}

/** Stores a new version (admin); the server validates it first and answers POLICY_INVALID otherwise. */
export function savePolicy(source: string, format: PolicyFormat): Promise<ReplacePolicyResponse> {
  return callApi(policyRoutes.replace, { body: { source, format } });
}

/** A request the server can evaluate against any policy; only the validation matters. */
const PROBE: DryRunRequest = { tool: 'read_file', args: {} };

/** Validates `source` without storing it: a dry run against it compiles it, or fails with POLICY_INVALID. */
export async function validatePolicy(source: string, format: PolicyFormat): Promise<void> {
  await callApi(policyRoutes.dryRun, { body: { request: PROBE, source, format } });
}

/** What `request` would meet under the active policy, or under `source` when given. */
export function dryRun(
  request: DryRunRequest,
  draft?: { source: string; format: PolicyFormat },
): Promise<DryRunResult> {
  return callApi(policyRoutes.dryRun, { body: { request, ...(draft ?? {}) } });
}

export async function listPolicyVersions(signal?: AbortSignal): Promise<PolicyVersionSummary[]> {
  const answer = await callApi(policyRoutes.versions, {}, signal);
  return answer.versions;
}

export function getPolicyVersion(version: number, signal?: AbortSignal): Promise<PolicyVersion> {
  return callApi(policyRoutes.version, { params: { version } }, signal);
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
