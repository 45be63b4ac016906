import {
  type LearnedRuleDocument,
  type StandingScopeDocument,
  type TrustProposalDocument,
  trustRoutes,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type { LearnedRuleDocument, StandingScopeDocument, TrustProposalDocument };

/** Proposals waiting for a person, brought up to date with the decision history. */
export async function listProposals(signal?: AbortSignal): Promise<TrustProposalDocument[]> {
  const answer = await callApi(trustRoutes.proposals, { query: { status: 'proposed' } }, signal);
  return answer.proposals;
}

/** Accepts a proposal as proposed, or with a narrower scope, for `days` (the policy's default when left out). */
export async function acceptProposal(
  id: string,
  input: { scope?: StandingScopeDocument; days?: number },
): Promise<LearnedRuleDocument | null> {
  const answer = await callApi(trustRoutes.accept, { params: { id }, body: input });
  return answer.rule;
}

export async function dismissProposal(id: string, reason?: string): Promise<TrustProposalDocument> {
  const answer = await callApi(trustRoutes.dismiss, {
    params: { id },
    body: reason === undefined ? {} : { reason },
  });
  return answer.proposal;
}

/** Learned rules in force. */
export async function listLearnedRules(signal?: AbortSignal): Promise<LearnedRuleDocument[]> {
  const answer = await callApi(trustRoutes.rules, {}, signal);
  return answer.rules;
}

export async function revokeLearnedRule(id: string): Promise<LearnedRuleDocument> {
  const answer = await callApi(trustRoutes.revoke, { params: { id }, body: {} });
  return answer.rule;
}
