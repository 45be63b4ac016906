import { z } from 'zod';
import { optionIdSchema } from '../enums.js';
import { DECISION_TEXT_MAX, MAX_NEW_LIMIT, WHITELIST_DAYS } from '../limits.js';
import { defineRoute } from '../route-table/define.js';
import { decisionDocumentSchema, gateDocumentSchema } from './gate-document.js';
import { MAX_TIMEOUT_SECONDS, gateParamsSchema as params } from './gates.js';
import { agentIdSchema, gateIdSchema, userIdSchema } from './ids.js';
import { rememberedRuleSchema, ruleScopeSchema, standingScopeSchema } from './rules.js';

export { MAX_NEW_LIMIT };

/** The same words whichever way a decision arrives (the API, Slack, an emailed page). */
const tooLong = (field: keyof typeof DECISION_TEXT_MAX) =>
  `must be at most ${DECISION_TEXT_MAX[field]} characters`;

/** `POST /v1/gates/:id/decide`. */
export const decideBodySchema = z.strictObject({
  option: optionIdSchema.describe('One of the gate’s options, e.g. approve, reject, steer, approve_always'),
  reason: z
    .string()
    .max(DECISION_TEXT_MAX.reason, tooLong('reason'))
    .optional()
    .describe('Why; shown to the agent'),
  feedback: z
    .string()
    .max(DECISION_TEXT_MAX.feedback, tooLong('feedback'))
    .optional()
    .describe('Feedback for the agent'),
  instructions: z
    .string()
    .max(DECISION_TEXT_MAX.instructions, tooLong('instructions'))
    .optional()
    .describe('Steer instructions: delivered verbatim as the agent’s next instruction'),
  affectedArtifacts: z
    .array(z.string().min(1).max(4096))
    .max(200)
    .optional()
    .describe('Workspace-relative paths the steer is about'),
  signature: z
    .string()
    .max(200)
    .optional()
    .describe(
      'Ed25519 signature (base64) over canonical JSON {gateId, option, payloadHash}; required on signed gates (an edited approval signs the edited payload’s hash)',
    ),
  editedArgs: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Only with option approve on a gate whose document says editable: the arguments to run instead of the agent’s; the approval binds to their hash',
    ),
  answer: z
    .string()
    .min(1)
    .max(DECISION_TEXT_MAX.answer, tooLong('answer'))
    .optional()
    .describe('The answer to a question gate; required by option answer'),
  delegateTo: agentIdSchema
    .optional()
    .describe(
      'Id of an existing agent, not the one that asked, that takes the task over; required by option delegate',
    ),
  newLimit: z
    .number()
    .positive()
    .max(MAX_NEW_LIMIT)
    .optional()
    .describe(
      'The limit the task may use from now on, above the constraint’s current limit when the gate states one; required by option expand_constraint',
    ),
  confirmApproval: z
    .boolean()
    .optional()
    .describe('Needed for a steer on a gate that cannot be steered: it is recorded as approve with feedback'),
  remember: z
    .strictObject({
      scope: ruleScopeSchema.default('run').describe('Where the rule applies; global needs tech_lead'),
      ttlSeconds: z
        .number()
        .int()
        .min(60)
        .max(MAX_TIMEOUT_SECONDS)
        .optional()
        .describe('Rule expiry; none = until revoked'),
      match: standingScopeSchema
        .optional()
        .describe(
          'What later calls of the tool it covers; must cover this gate’s call. None = the first scope the gate suggests',
        ),
    })
    .optional()
    .describe('For approve_always: how to remember the rule'),
  whitelist: z
    .strictObject({
      path: z
        .string()
        .trim()
        .min(1)
        .max(1000)
        .optional()
        .describe(
          'The files the entry covers: the finding’s file (the default) or a glob that matches it (`src/legacy/**`); a glob matching every file is refused',
        ),
      agents: z
        .enum(['this', 'every'])
        .default('this')
        .describe('this: only the gate’s agent (the default); every: every agent'),
      expiresInDays: z
        .number()
        .int()
        .min(1)
        .max(WHITELIST_DAYS)
        .optional()
        .describe(`Days until the entry needs review again; at most and by default ${WHITELIST_DAYS}`),
    })
    .optional()
    .describe(
      'Only with option whitelist on a finding’s false_positive_override gate: the scope the person chooses for the entry; without it, the finding’s own file and the gate’s agent for 90 days',
    ),
});

export const decideResponseSchema = z.object({
  gate: gateDocumentSchema,
  decision: decisionDocumentSchema.nullable().describe('Null for a partial N-of-M approval or a view option'),
  rule: rememberedRuleSchema.nullable().describe('The rule approve_always created'),
});

/** `POST /v1/gates/decide-batch`. */
export const decideBatchBodySchema = z.strictObject({
  gateIds: z.array(gateIdSchema).min(1).max(100).describe('Up to 100 gates'),
  option: optionIdSchema.describe('The option for every gate'),
  reason: z.string().max(2000).optional().describe('Why'),
});

const batchItemSchema = z.object({
  gateId: z.string(),
  ok: z.boolean().describe('Decided'),
  status: z.string().optional().describe('The gate’s status after the decision'),
  error: z
    .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
    .optional()
    .describe('Why this gate was refused'),
});

export const decideBatchResponseSchema = z.object({ results: z.array(batchItemSchema) });

/** `POST /v1/gates/:id/extend`. */
export const extendBodySchema = z.strictObject({
  seconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_SECONDS)
    .describe('New deadline: this many seconds from now'),
});

/** `POST /v1/gates/:id/assign`. */
export const assignBodySchema = z.strictObject({
  assignees: z.array(userIdSchema).max(50).describe('People who may decide; empty = anyone with the role'),
});

/** The answer of extend and assign. */
export const gateResponseSchema = z.object({ gate: gateDocumentSchema });

/** `POST /v1/gates/:id/consume`. */
export const consumeBodySchema = z.strictObject({
  payloadHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'a payload hash is 64 lowercase hex characters')
    .describe('SHA-256 of the action about to run'),
});

export const consumeResponseSchema = z.object({
  gate: gateDocumentSchema,
  consumedAt: z.number().nullable().describe('When it was used; null for an approve-always rule'),
  oneOff: z.boolean().describe('False for approve_always, which is not used up'),
});

/** `POST /v1/gates/:id/steer-failed`. */
export const steerFailedBodySchema = z.strictObject({
  reason: z.string().min(1).max(2000).describe('Why the steer could not be applied'),
});

export const steerFailedResponseSchema = z.object({
  gate: gateDocumentSchema.describe('The reopened gate'),
  previousGateId: z.string().describe('The steered gate'),
});

/** `POST /v1/gates/:id/withdraw`. */
export const withdrawBodySchema = z.strictObject({
  reason: z
    .string()
    .max(DECISION_TEXT_MAX.reason)
    .optional()
    .describe('Why the agent no longer needs the decision; the people told of the gate see it'),
});

export type DecideBody = z.input<typeof decideBodySchema>;
export type DecideResponse = z.infer<typeof decideResponseSchema>;
export type DecideBatchBody = z.input<typeof decideBatchBodySchema>;
export type DecideBatchItem = z.infer<typeof batchItemSchema>;
export type DecideBatchResponse = z.infer<typeof decideBatchResponseSchema>;
export type ExtendBody = z.input<typeof extendBodySchema>;
export type AssignBody = z.input<typeof assignBodySchema>;
export type GateResponse = z.infer<typeof gateResponseSchema>;
export type ConsumeBody = z.input<typeof consumeBodySchema>;
export type ConsumeResponse = z.infer<typeof consumeResponseSchema>;
export type SteerFailedBody = z.input<typeof steerFailedBodySchema>;
export type SteerFailedResponse = z.infer<typeof steerFailedResponseSchema>;
export type WithdrawBody = z.input<typeof withdrawBodySchema>;

const tags = ['gates'];

/** The gate actions: deciding, batch deciding, extending, assigning, consuming, withdrawing, failed steers. */
export const gateActionRoutes = {
  decide: defineRoute({
    method: 'POST',
    path: '/v1/gates/:id/decide',
    tags,
    params,
    body: decideBodySchema,
    response: { 200: decideResponseSchema },
  }),
  decideBatch: defineRoute({
    method: 'POST',
    path: '/v1/gates/decide-batch',
    tags,
    body: decideBatchBodySchema,
    response: { 200: decideBatchResponseSchema },
  }),
  extend: defineRoute({
    method: 'POST',
    path: '/v1/gates/:id/extend',
    tags,
    params,
    body: extendBodySchema,
    response: { 200: gateResponseSchema },
  }),
  assign: defineRoute({
    method: 'POST',
    path: '/v1/gates/:id/assign',
    tags,
    params,
    body: assignBodySchema,
    response: { 200: gateResponseSchema },
  }),
  consume: defineRoute({
    method: 'POST',
    path: '/v1/gates/:id/consume',
    tags,
    params,
    body: consumeBodySchema,
    response: { 200: consumeResponseSchema },
  }),
  withdraw: defineRoute({
    method: 'POST',
    path: '/v1/gates/:id/withdraw',
    tags,
    params,
    body: withdrawBodySchema,
    response: { 200: gateResponseSchema },
    description:
      'The agent that asked no longer needs the decision: its pending gate is cancelled (audited as gate.cancelled with withdrawn: true), the people told of it see it ended',
  }),
  steerFailed: defineRoute({
    method: 'POST',
    path: '/v1/gates/:id/steer-failed',
    tags,
    params,
    body: steerFailedBodySchema,
    response: { 200: steerFailedResponseSchema },
  }),
};
