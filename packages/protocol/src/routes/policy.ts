import { z } from 'zod';
import {
  approvalModeSchema,
  autonomyLevelSchema,
  gateTypeIdSchema,
  riskLevelSchema,
  roleSchema,
  timeoutActionSchema,
} from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { MAX_TIMEOUT_SECONDS } from './gates.js';

const MAX_SOURCE = 512 * 1024;

export const policyFormatSchema = z.enum(['yaml', 'json']).describe('How the source is written');

const versionSummary = {
  version: z.number().describe('Version number, from 1'),
  format: policyFormatSchema,
  createdBy: z.string().describe('user:<id>, or system for the built-in default'),
  createdAt: z.number().describe('Epoch ms'),
};

/** `GET /v1/policy`. */
export const policyViewSchema = z.object({
  ...versionSummary,
  source: z.string().describe('The policy as written'),
  name: z.string().describe('The policy’s name'),
  failure: z
    .string()
    .nullable()
    .describe('Why the stored policy does not load (every request is gated meanwhile)'),
});

/** `PUT /v1/policy`. */
export const replacePolicyBodySchema = z.strictObject({
  source: z.string().min(1).max(MAX_SOURCE).describe('Policy text'),
  format: policyFormatSchema.default('yaml'),
});

export const replacePolicyResponseSchema = policyViewSchema.extend({
  previousVersion: z.number().nullable(),
});

/** `GET /v1/policy/versions`. */
export const policyVersionSummarySchema = z.object(versionSummary);

export const policyVersionListResponseSchema = z.object({ versions: z.array(policyVersionSummarySchema) });

/** `GET /v1/policy/versions/:version`. */
export const policyVersionParamsSchema = z.strictObject({
  version: z.coerce.number().int().min(1).max(1_000_000_000).describe('Version number'),
});

export const policyVersionResponseSchema = z.object({ ...versionSummary, source: z.string() });

const shortText = z.string().min(1).max(200);

/** The request a dry run evaluates, with the agent and run it would come from. */
export const dryRunRequestSchema = z.strictObject({
  event: z.string().min(1).max(100).optional().describe('Policy event; default tool_call or operation'),
  tool: shortText.optional(),
  operation: z.string().min(1).max(2000).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  risk: riskLevelSchema.optional(),
  confidence: z.number().min(0).max(1).optional(),
  gateType: gateTypeIdSchema.optional(),
  agent: z.strictObject({ id: shortText, profile: shortText.nullable().optional() }).optional(),
  run: z
    .strictObject({
      id: shortText,
      autonomy: autonomyLevelSchema,
      approvalMode: approvalModeSchema,
      confidenceThreshold: z.number().min(0).max(1).optional(),
    })
    .optional(),
  impact: z
    .strictObject({
      files: z.array(z.string().max(4096)).max(1000).optional(),
      resources: z.array(z.string().max(4096)).max(1000).optional(),
    })
    .optional(),
  timeoutSeconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional(),
  timeoutAction: timeoutActionSchema.optional(),
});

/** `POST /v1/policy/dry-run`. */
export const dryRunBodySchema = z.strictObject({
  request: dryRunRequestSchema.describe('The request as an agent would send it, with its agent and run'),
  source: z.string().min(1).max(MAX_SOURCE).optional().describe('Try this policy instead of the active one'),
  format: policyFormatSchema.optional(),
});

export const dryRunResponseSchema = z.object({
  decision: z
    .object({
      action: z.enum(['allow', 'deny', 'gate']),
      ruleId: z.string().nullable(),
      reason: z.string(),
      matched: z.array(z.string()).describe('Rules that matched'),
      evaluatedConditions: z.number(),
      errors: z.array(z.object({ ruleId: z.string(), message: z.string() })),
      alwaysGated: z.array(z.string()).optional(),
      gate: z.record(z.string(), z.unknown()).optional(),
    })
    .describe('What the policy alone decided'),
  outcome: z.enum(['allowed', 'denied', 'gated']).describe('What would happen'),
  via: z.enum(['policy', 'remembered_rule', 'trigger_rules', 'approval_mode']).describe('What decided it'),
  ruleId: z.string().nullable(),
  reason: z.string(),
  rememberedRuleId: z.string().nullable(),
  gate: z
    .object({
      type: z.string(),
      risk: riskLevelSchema,
      threshold: z.string(),
      timeoutSeconds: z.number().nullable(),
      timeoutAction: timeoutActionSchema,
      minRole: roleSchema,
      requiredApprovals: z.number(),
      signatureRequired: z.boolean(),
      assignees: z.array(z.string()),
      escalationChain: z.array(roleSchema),
    })
    .nullable()
    .describe('The gate it would open'),
  policyVersion: z.number().nullable().describe('The stored version evaluated; null for a sent source'),
});

export type PolicyFormat = z.infer<typeof policyFormatSchema>;
export type PolicyView = z.infer<typeof policyViewSchema>;
export type ReplacePolicyBody = z.input<typeof replacePolicyBodySchema>;
export type ReplacePolicyResponse = z.infer<typeof replacePolicyResponseSchema>;
export type PolicyVersionSummary = z.infer<typeof policyVersionSummarySchema>;
export type PolicyVersionListResponse = z.infer<typeof policyVersionListResponseSchema>;
export type PolicyVersionResponse = z.infer<typeof policyVersionResponseSchema>;
export type DryRunRequest = z.input<typeof dryRunRequestSchema>;
export type DryRunBody = z.input<typeof dryRunBodySchema>;
export type DryRunResponse = z.infer<typeof dryRunResponseSchema>;

const tags = ['policy'];

/** The policy routes: read, replace (validated, versioned, audited), history, dry run. */
export const policyRoutes = {
  get: defineRoute({ method: 'GET', path: '/v1/policy', tags, response: { 200: policyViewSchema } }),
  replace: defineRoute({
    method: 'PUT',
    path: '/v1/policy',
    tags,
    body: replacePolicyBodySchema,
    response: { 200: replacePolicyResponseSchema },
  }),
  dryRun: defineRoute({
    method: 'POST',
    path: '/v1/policy/dry-run',
    tags,
    body: dryRunBodySchema,
    response: { 200: dryRunResponseSchema },
  }),
  versions: defineRoute({
    method: 'GET',
    path: '/v1/policy/versions',
    tags,
    response: { 200: policyVersionListResponseSchema },
  }),
  version: defineRoute({
    method: 'GET',
    path: '/v1/policy/versions/:version',
    tags,
    params: policyVersionParamsSchema,
    response: { 200: policyVersionResponseSchema },
  }),
};
