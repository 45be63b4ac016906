import { z } from 'zod';
import { ruleIdSchema } from './ids.js';

/** Where an "approve always" rule applies. */
export const ruleScopeSchema = z.enum(['run', 'agent', 'global']);

export const rememberedRuleSchema = z
  .object({
    id: z.string().describe('Rule id'),
    scope: ruleScopeSchema.describe('Where it applies'),
    runId: z.string().nullable().describe('Run, for run scope'),
    agentId: z.string().nullable().describe('Agent, for agent scope'),
    tool: z.string().describe('The tool it allows'),
    argsHash: z.string().nullable().describe('Bound to these exact arguments; null = any'),
    createdBy: z.string().describe('Who approved always'),
    createdAt: z.number().describe('Epoch ms'),
    expiresAt: z.number().nullable().describe('Epoch ms; null = until revoked'),
    revokedAt: z.number().nullable().describe('Epoch ms when revoked'),
    revokedBy: z.string().nullable().describe('Who revoked it'),
    sourceGateId: z.string().nullable().describe('The gate whose "approve always" created it'),
  })
  .describe('A remembered "approve always" rule');

/** `GET /v1/rules`. */
export const ruleListQuerySchema = z.strictObject({
  includeRevoked: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('Also list revoked and expired rules'),
});

export const ruleListResponseSchema = z.object({ rules: z.array(rememberedRuleSchema) });

/** `DELETE /v1/rules/:id`. */
export const ruleParamsSchema = z.strictObject({ id: ruleIdSchema });

export const ruleResponseSchema = z.object({ rule: rememberedRuleSchema });

export type RuleScope = z.infer<typeof ruleScopeSchema>;
export type RememberedRule = z.infer<typeof rememberedRuleSchema>;
export type RuleListResponse = z.infer<typeof ruleListResponseSchema>;
export type RuleResponse = z.infer<typeof ruleResponseSchema>;
