import { z } from 'zod';
import { autonomyLevelSchema } from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { ruleIdSchema } from './ids.js';
import { standingScopeSchema } from './rules.js';

export const trustProposalIdSchema = z
  .string()
  .regex(/^tp_[A-Za-z0-9_]{1,64}$/, 'a trust proposal id looks like tp_…')
  .describe('Trust proposal id');

export const trustProposalStatusSchema = z
  .enum(['proposed', 'accepted', 'dismissed', 'expired', 'revoked'])
  .describe('proposed, accepted, dismissed, expired or revoked');

export const trustEvidenceSchema = z
  .object({
    approvals: z.number().describe('Approvals of calls the scope covers'),
    people: z.array(z.string()).describe('The distinct people who approved them'),
    firstAt: z.number().describe('Epoch ms of the first approval'),
    lastAt: z.number().describe('Epoch ms of the last approval'),
    spanDays: z.number().describe('Days between the first and the last approval'),
    medianDecisionMs: z.number().describe('Median time from the gate opening to the approval'),
  })
  .describe('Why the proposal is made');

export const trustReplaySchema = z
  .object({
    windowDays: z.number().describe('How far back the replay reaches'),
    wouldAllow: z.number().describe('Past gates the rule would have let through'),
    rejected: z.number(),
    steered: z.number(),
    edited: z.number(),
    failed: z.number().describe('Of those, calls reported harmful or failed afterwards'),
    gateIds: z.array(z.string()).describe('Up to 50 of those gates, newest first'),
  })
  .describe('The past gates the rule would have allowed, and how people answered them');

export const trustProposalKindSchema = z
  .enum(['scope', 'autonomy'])
  .describe('scope: a scoped allow rule; autonomy: one autonomy level up for the agent');

export const autonomyStepSchema = z
  .object({ from: autonomyLevelSchema, to: autonomyLevelSchema })
  .describe('The autonomy level the agent had and the one proposed');

export const trustProposalSchema = z
  .object({
    id: trustProposalIdSchema,
    kind: trustProposalKindSchema,
    agentId: z.string().describe('The agent whose calls it covers'),
    tool: z.string().describe('Empty for an autonomy proposal'),
    autonomy: autonomyStepSchema
      .nullable()
      .describe('The step of an autonomy proposal; null for a scope (its replay counts phase reviews)'),
    scope: standingScopeSchema.describe('The scope the history earned'),
    acceptedScope: standingScopeSchema.nullable().describe('The scope a person accepted; null until then'),
    description: z.string().describe('The scope as people read it, e.g. bash(npm test:*)'),
    status: trustProposalStatusSchema,
    evidence: trustEvidenceSchema,
    replay: trustReplaySchema,
    createdAt: z.number(),
    updatedAt: z.number(),
    decidedBy: z.string().nullable().describe('Who accepted, dismissed or revoked it'),
    acceptedBy: z.string().nullable(),
    ruleId: z.string().nullable().describe('The learned rule once accepted'),
    expiresAt: z.number().nullable().describe('When the learned rule stops applying'),
    policyVersion: z.number().nullable().describe('The policy version its acceptance wrote'),
    revokedReason: z.string().nullable(),
  })
  .describe('A scoped allow rule the decision history earned');

export const learnedRuleSchema = z
  .object({
    id: z.string().describe('The remembered rule id (rule_…)'),
    proposalId: trustProposalIdSchema,
    agentId: z.string(),
    tool: z.string(),
    scope: standingScopeSchema,
    description: z.string(),
    state: z.enum(['active', 'expired', 'revoked']),
    acceptedBy: z.string(),
    acceptedAt: z.number(),
    expiresAt: z.number().nullable(),
    revokedAt: z.number().nullable(),
    revokedBy: z.string().nullable(),
    revokedReason: z.string().nullable(),
    policyVersion: z.number().nullable(),
    evidence: trustEvidenceSchema,
  })
  .describe('A rule people accepted from a trust proposal');

/** `GET /v1/trust/proposals`. */
export const trustProposalListQuerySchema = z.strictObject({
  status: z
    .enum(['proposed', 'accepted', 'dismissed', 'expired', 'revoked', 'all'])
    .default('proposed')
    .describe('Which proposals to list; proposed by default'),
});
export const trustProposalListResponseSchema = z.object({ proposals: z.array(trustProposalSchema) });

export const trustProposalParamsSchema = z.strictObject({ id: trustProposalIdSchema });

/** `POST /v1/trust/proposals/:id/accept`: the proposed scope, or a narrower one. */
export const trustAcceptBodySchema = z.strictObject({
  scope: standingScopeSchema.optional().describe('A narrower scope than the proposed one'),
  days: z
    .number()
    .int()
    .min(1)
    .max(365)
    .optional()
    .describe('How long the rule lasts; the policy’s ruleDays by default'),
});

/** `POST /v1/trust/proposals/:id/dismiss`. */
export const trustDismissBodySchema = z.strictObject({
  reason: z.string().trim().max(1000).optional(),
});

export const trustProposalResponseSchema = z.object({ proposal: trustProposalSchema });
export const trustAcceptResponseSchema = z.object({
  proposal: trustProposalSchema,
  rule: learnedRuleSchema.nullable().describe('The learned rule; null for an autonomy proposal'),
});

/** `GET /v1/trust/rules`. */
export const learnedRuleListQuerySchema = z.strictObject({
  includeEnded: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('Also list expired and revoked rules'),
});
export const learnedRuleListResponseSchema = z.object({ rules: z.array(learnedRuleSchema) });

export const learnedRuleParamsSchema = z.strictObject({ id: ruleIdSchema });

/** `POST /v1/trust/rules/:id/revoke` and `POST /v1/trust/rules/:id/harmful`. */
export const learnedRuleRevokeBodySchema = z.strictObject({
  reason: z.string().trim().min(1, 'reason must not be empty').max(1000).optional(),
});
export const learnedRuleResponseSchema = z.object({ rule: learnedRuleSchema });

export type TrustProposalDocument = z.infer<typeof trustProposalSchema>;
export type LearnedRuleDocument = z.infer<typeof learnedRuleSchema>;
export type TrustAcceptBody = z.infer<typeof trustAcceptBodySchema>;
export type TrustProposalListResponse = z.infer<typeof trustProposalListResponseSchema>;
export type LearnedRuleListResponse = z.infer<typeof learnedRuleListResponseSchema>;

const tags = ['trust'];

/** Trust proposals from the decision history, and the rules people accepted from them. */
export const trustRoutes = {
  proposals: defineRoute({
    method: 'GET',
    path: '/v1/trust/proposals',
    tags,
    summary: 'Bring proposals up to date with the decision history and list them',
    query: trustProposalListQuerySchema,
    response: { 200: trustProposalListResponseSchema },
  }),
  accept: defineRoute({
    method: 'POST',
    path: '/v1/trust/proposals/:id/accept',
    tags,
    summary: 'Accept a proposal, or a narrower scope of it, as a learned rule (tech lead or admin)',
    params: trustProposalParamsSchema,
    body: trustAcceptBodySchema,
    response: { 200: trustAcceptResponseSchema },
  }),
  dismiss: defineRoute({
    method: 'POST',
    path: '/v1/trust/proposals/:id/dismiss',
    tags,
    summary: 'Dismiss a proposal (tech lead or admin)',
    params: trustProposalParamsSchema,
    body: trustDismissBodySchema,
    response: { 200: trustProposalResponseSchema },
  }),
  rules: defineRoute({
    method: 'GET',
    path: '/v1/trust/rules',
    tags,
    summary: 'List learned rules',
    query: learnedRuleListQuerySchema,
    response: { 200: learnedRuleListResponseSchema },
  }),
  revoke: defineRoute({
    method: 'POST',
    path: '/v1/trust/rules/:id/revoke',
    tags,
    summary: 'Revoke a learned rule at once (tech lead or admin)',
    params: learnedRuleParamsSchema,
    body: learnedRuleRevokeBodySchema,
    response: { 200: learnedRuleResponseSchema },
  }),
  harmful: defineRoute({
    method: 'POST',
    path: '/v1/trust/rules/:id/harmful',
    tags,
    summary: 'Report a call a learned rule let through as harmful: the rule is revoked at once',
    params: learnedRuleParamsSchema,
    body: learnedRuleRevokeBodySchema,
    response: { 200: learnedRuleResponseSchema },
  }),
};
