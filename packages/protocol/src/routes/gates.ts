import { z } from 'zod';
import { GATE_STATUSES, gateTypeIdSchema, riskLevelSchema, timeoutActionSchema } from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { gateDocumentSchema, interventionNoticeSchema } from './gate-document.js';
import {
  agentIdSchema,
  gateIdSchema,
  idCursorSchema,
  nextCursorSchema,
  pageLimitSchema,
  runIdSchema,
  userIdSchema,
} from './ids.js';
import { standingScopesSchema } from './rules.js';

/** The longest deadline a gate or a remembered rule may have: 30 days. */
export const MAX_TIMEOUT_SECONDS = 30 * 24 * 3600;

/** `POST /v1/gates`: an agent asks before acting. */
export const gateRequestBodySchema = z.strictObject({
  runId: runIdSchema.optional().describe('The run this step belongs to (its approval mode applies)'),
  tool: z.string().min(1).max(200).optional().describe('Tool name; give exactly one of tool or operation'),
  operation: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('Operation text; give exactly one of tool or operation'),
  args: z.record(z.string(), z.unknown()).default({}).describe('Arguments; approvals bind to their hash'),
  event: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, 'events are lowercase snake_case, e.g. tool_call or planning_complete')
    .optional()
    .describe('Policy event; default tool_call or operation'),
  gateType: gateTypeIdSchema.optional().describe('Ask for a specific gate type'),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Shown to the reviewer (hidden characters shown as ⟨U+…⟩ markers)'),
  artifacts: z.array(z.string().min(1).max(4096)).max(1000).optional().describe('Workspace-relative paths'),
  risk: riskLevelSchema.optional().describe('The agent’s own risk estimate; the policy may raise it'),
  confidence: z.number().min(0).max(1).optional().describe('The agent’s confidence, 0–1'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_SECONDS)
    .optional()
    .describe('Seconds until the timeout action fires, unless the policy sets it'),
  timeoutAction: timeoutActionSchema.optional().describe('deny, escalate or proceed (where allowed)'),
  title: z.string().min(1).max(500).optional().describe('One line for the reviewer'),
});

export const gateRequestHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'an idempotency key is 1-200 printable ASCII characters')
    .optional()
    .describe('Retries with the same key return the first answer; never a second gate'),
});

export const gateRequestResponseSchema = z.object({
  outcome: z.enum(['allowed', 'denied', 'gated']).describe('What the policy (and the run) decided'),
  gate: gateDocumentSchema.nullable().describe('The gate to wait on when gated'),
  gateId: z.string().nullable().describe('Its id'),
  ruleId: z.string().nullable().describe('The policy rule (or remembered rule) that decided'),
  reason: z.string().describe('Why'),
  payloadHash: z.string().describe('SHA-256 of the action; approvals bind to it'),
  interventions: z.array(interventionNoticeSchema).describe('Interventions not seen yet'),
  abortSubtask: z
    .boolean()
    .describe(
      'True when the request’s confidence is in the zero band (below 0.2): stop the subtask and wait for the gate’s decision, which sees the diagnostics',
    ),
});

/** `GET /v1/gates`. */
export const gateListQuerySchema = z.strictObject({
  status: z.enum(GATE_STATUSES).optional().describe('Only this status'),
  type: gateTypeIdSchema.optional().describe('Only this gate type'),
  risk: riskLevelSchema.optional().describe('Only this risk'),
  agentId: agentIdSchema.optional(),
  runId: runIdSchema.optional(),
  assignee: userIdSchema.optional().describe('Only gates assigned to this person'),
  limit: pageLimitSchema(50),
  cursor: idCursorSchema.optional(),
});

const headlineSchema = z
  .string()
  .describe(
    'The line the gate’s page leads with (its Summary of Action, the agent named by its registered name); lists show it, the agent’s own words stay in `title`',
  );

/** A gate in a list, with the headline its page leads with, so every list names it the same way. */
export const gateListItemSchema = gateDocumentSchema.extend({ headline: headlineSchema });

export const gateListResponseSchema = z.object({
  items: z.array(gateListItemSchema),
  nextCursor: nextCursorSchema,
});

/** `:id` of every `/v1/gates/:id…` route. */
export const gateParamsSchema = z.strictObject({ id: gateIdSchema });

export const gateViewResponseSchema = z.object({
  gate: gateDocumentSchema,
  headline: headlineSchema,
  briefing: z.record(z.string(), z.unknown()).nullable().describe('Summary of Action'),
  consumedAt: z.number().nullable().describe('When a one-off approval was used'),
  separatedOwner: z
    .string()
    .nullable()
    .describe(
      'The person who owns the agent that asked, when separation of duties keeps them from approving (they may still reject); null otherwise',
    ),
  standingScopes: standingScopesSchema
    .nullable()
    .describe('For a gate offering approve_always: the scopes a person may remember, or why none'),
});

/** `GET /v1/gates/:id/wait`. */
export const gateWaitQuerySchema = z.strictObject({
  timeoutMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(0)
    .describe('How long to wait for the gate to end, ≤ 60 s; 0 (the default) answers at once'),
});

export const gateWaitResponseSchema = z.object({
  gate: gateDocumentSchema,
  outcome: z
    .string()
    .nullable()
    .describe('approved, denied, steered, timed_out, cancelled or an option; null while pending'),
});

export type GateRequestBody = z.input<typeof gateRequestBodySchema>;
export type GateRequestResponse = z.infer<typeof gateRequestResponseSchema>;
export type GateListQuery = z.input<typeof gateListQuerySchema>;
export type GateListItem = z.infer<typeof gateListItemSchema>;
export type GateListResponse = z.infer<typeof gateListResponseSchema>;
export type GateViewResponse = z.infer<typeof gateViewResponseSchema>;
export type GateWaitResponse = z.infer<typeof gateWaitResponseSchema>;

const tags = ['gates'];

/** The gates routes: requests from agents, listing, reading and long-polling. */
export const gateRoutes = {
  request: defineRoute({
    method: 'POST',
    path: '/v1/gates',
    tags,
    body: gateRequestBodySchema,
    headers: gateRequestHeadersSchema,
    response: { 200: gateRequestResponseSchema },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/v1/gates',
    tags,
    query: gateListQuerySchema,
    response: { 200: gateListResponseSchema },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/v1/gates/:id',
    tags,
    params: gateParamsSchema,
    response: { 200: gateViewResponseSchema },
  }),
  wait: defineRoute({
    method: 'GET',
    path: '/v1/gates/:id/wait',
    tags,
    params: gateParamsSchema,
    query: gateWaitQuerySchema,
    response: { 200: gateWaitResponseSchema },
  }),
};
