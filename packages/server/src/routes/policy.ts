import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  approvalModeSchema,
  autonomyLevelSchema,
  gateTypeIdSchema,
  riskLevelSchema,
  roleSchema,
  timeoutActionSchema,
} from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

const MAX_SOURCE = 512 * 1024;
const formatSchema = z.enum(['yaml', 'json']).describe('How the source is written');

const versionSummary = {
  version: z.number().describe('Version number, from 1'),
  format: formatSchema,
  createdBy: z.string().describe('user:<id>, or system for the built-in default'),
  createdAt: z.number().describe('Epoch ms'),
};

const policyView = z.object({
  ...versionSummary,
  source: z.string().describe('The policy as written'),
  name: z.string().describe('The policy’s name'),
  failure: z
    .string()
    .nullable()
    .describe('Why the stored policy does not load (every request is gated meanwhile)'),
});

const replaceBody = z.strictObject({
  source: z.string().min(1).max(MAX_SOURCE).describe('Policy text'),
  format: formatSchema.default('yaml'),
});

const shortText = z.string().min(1).max(200);

const dryRunRequest = z.strictObject({
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
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .optional(),
  timeoutAction: timeoutActionSchema.optional(),
});

const dryRunBody = z.strictObject({
  request: dryRunRequest.describe('The request as an agent would send it, with its agent and run'),
  source: z.string().min(1).max(MAX_SOURCE).optional().describe('Try this policy instead of the active one'),
  format: formatSchema.optional(),
});

const dryRunResponse = z.object({
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

/** The policy: read, replace (validated, versioned, audited), history, dry run. */
export async function policyRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['policy'];

  // Agents read the rules too (guardrails context), so they know what to ask about before acting.
  app.get('/v1/policy', { schema: { tags, response: { 200: policyView } } }, async (request) => {
    if (requireAuthenticated(request).kind === 'user') requireUser(request, 'viewer');
    return services.policies.get();
  });

  app.put(
    '/v1/policy',
    {
      schema: {
        tags,
        body: replaceBody,
        response: { 200: policyView.extend({ previousVersion: z.number().nullable() }) },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return services.policies.replace(admin.id, request.body);
    },
  );

  app.post(
    '/v1/policy/dry-run',
    { schema: { tags, body: dryRunBody, response: { 200: dryRunResponse } } },
    async (request) => {
      requireUser(request, 'developer');
      return services.policies.dryRun(request.body);
    },
  );

  app.get(
    '/v1/policy/versions',
    { schema: { tags, response: { 200: z.object({ versions: z.array(z.object(versionSummary)) }) } } },
    async (request) => {
      requireUser(request, 'viewer');
      return { versions: await services.policies.versions() };
    },
  );

  app.get(
    '/v1/policy/versions/:version',
    {
      schema: {
        tags,
        params: z.strictObject({
          version: z.coerce.number().int().min(1).max(1_000_000_000).describe('Version number'),
        }),
        response: { 200: z.object({ ...versionSummary, source: z.string() }) },
      },
    },
    async (request) => {
      requireUser(request, 'viewer');
      return services.policies.version(request.params.version);
    },
  );
}
