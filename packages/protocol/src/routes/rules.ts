import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { ruleIdSchema } from './ids.js';

/** Where an "approve always" rule applies. */
export const ruleScopeSchema = z.enum(['run', 'agent', 'global']);

/**
 * What an "approve always" rule covers within its tool: the exact command, a command prefix
 * (`npm test`), a path glob (`src/**`), or the whole tool for calls with no command or paths.
 * The same shape as core's StandingScope, which decides what each one covers.
 */
export const standingScopeSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('tool') }),
    z.strictObject({ kind: z.literal('command'), command: z.string().min(1).max(4000) }),
    z.strictObject({ kind: z.literal('prefix'), prefix: z.string().min(1).max(400) }),
    z.strictObject({ kind: z.literal('path'), glob: z.string().min(1).max(400) }),
  ])
  .describe('What the rule covers within its tool: tool, command, prefix or path');

/** The scopes a person may choose for "approve always" on a gate, the suggestion first; or why none. */
export const standingScopesSchema = z
  .object({
    options: z
      .array(
        z.object({
          match: standingScopeSchema,
          description: z.string().describe('The scope as people read it, e.g. Bash(npm test:*)'),
        }),
      )
      .describe('The scopes that fit the gate’s call, the suggestion first; empty when refused'),
    refusal: z
      .string()
      .nullable()
      .describe('Why "approve always" cannot be chosen for this call; null when it can'),
  })
  .describe('The scopes "approve always" may remember for this gate');

export const rememberedRuleSchema = z
  .object({
    id: z.string().describe('Rule id'),
    scope: ruleScopeSchema.describe('Where it applies'),
    runId: z.string().nullable().describe('Run, for run scope'),
    agentId: z.string().nullable().describe('Agent, for agent scope'),
    tool: z.string().describe('The tool it allows'),
    argsHash: z.string().nullable().describe('Bound to these exact arguments; null = any'),
    match: standingScopeSchema
      .nullable()
      .describe('What it covers within its tool; null for a rule made before scopes, read as the whole tool'),
    description: z.string().describe('What it covers, e.g. bash(npm test:*)'),
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
export type StandingScopeDocument = z.infer<typeof standingScopeSchema>;
export type StandingScopes = z.infer<typeof standingScopesSchema>;
export type RememberedRule = z.infer<typeof rememberedRuleSchema>;
export type RuleListResponse = z.infer<typeof ruleListResponseSchema>;
export type RuleResponse = z.infer<typeof ruleResponseSchema>;

const tags = ['rules'];

/** Remembered "approve always" rules: list and revoke. */
export const ruleRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/v1/rules',
    tags,
    query: ruleListQuerySchema,
    response: { 200: ruleListResponseSchema },
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/v1/rules/:id',
    tags,
    params: ruleParamsSchema,
    response: { 200: ruleResponseSchema },
  }),
};
