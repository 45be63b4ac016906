import { z } from 'zod';
import {
  approvalModeSchema,
  autonomyLevelSchema,
  interventionKindSchema,
  phaseTypeSchema,
  runStatusSchema,
} from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { gateDocumentSchema } from './gate-document.js';
import { agentIdSchema, idCursorSchema, nextCursorSchema, pageLimitSchema, runIdSchema } from './ids.js';
import { reviewDocumentSchema } from './reviews.js';
import { interventionDocumentSchema, resumeDocumentSchema, runDocumentSchema } from './run-document.js';

/** `POST /v1/runs`. */
export const createRunBodySchema = z.strictObject({
  agentId: agentIdSchema
    .optional()
    .describe(
      'The agent the run is for: required for people (developer+), only the caller itself for agents',
    ),
  autonomy: autonomyLevelSchema
    .optional()
    .describe('Overrides the agent’s default (agent setting, else its profile’s, else partial)'),
  approvalMode: approvalModeSchema.optional().describe('auto (the default), manual or confidence_threshold'),
  confidenceThreshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      '0–1, default 0.8; when given it also replaces CONFIDENCE_THRESHOLD for this run’s confidence reports',
    ),
  title: z.string().min(1).max(500).optional().describe('What the run is about'),
});

/** `GET /v1/runs`. */
export const runListQuerySchema = z.strictObject({
  agentId: agentIdSchema.optional().describe('Only runs of this agent'),
  status: runStatusSchema.optional().describe('Only runs in this status'),
  limit: pageLimitSchema(50),
  cursor: idCursorSchema.optional(),
});

export const runListResponseSchema = z.object({
  items: z.array(runDocumentSchema),
  nextCursor: nextCursorSchema,
});

/** `:id` of every `/v1/runs/:id…` route. */
export const runParamsSchema = z.strictObject({ id: runIdSchema });

export const runResponseSchema = z.object({ run: runDocumentSchema });

export const runDetailResponseSchema = z.object({
  run: runDocumentSchema,
  resume: resumeDocumentSchema.nullable(),
});

/** `POST /v1/runs/:id/checkpoint`. */
export const checkpointBodySchema = z.strictObject({
  phase: z.number().int().min(1).max(10_000).describe('The phase that just ended, from 1'),
  type: phaseTypeSchema.describe('strategic or tactical'),
  jobComplete: z.boolean().default(false).describe('True once the whole job is done'),
  branch: z
    .string()
    .regex(
      /^phase-[1-9][0-9]{0,4}-(strategic|tactical)(-rev-[1-9][0-9]{0,3})?$/,
      'a phase branch is named phase-N-type or phase-N-type-rev-M',
    )
    .optional()
    .describe(
      'The phase branch the agent pushed to the run’s workspace: opens (or updates) its review against main, merged at once when the autonomy level needs no approval',
    ),
  retrospective: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .optional()
    .describe('The phase’s retrospective: the squash commit’s message when its branch is merged'),
});

export const checkpointResponseSchema = z.object({
  freeze: z.boolean().describe('True when the run froze for a phase review'),
  gate: gateDocumentSchema.nullable().describe('The phase_review gate to wait on'),
  review: reviewDocumentSchema
    .nullable()
    .optional()
    .describe(
      'The review of the pushed branch, when `branch` was given (merged already when no approval is needed)',
    ),
  run: runDocumentSchema,
});

/** `POST /v1/runs/:id/complete`: no fields. */
export const completeRunBodySchema = z.strictObject({}).optional();

export const completeRunResponseSchema = z.object({
  run: runDocumentSchema,
  gate: gateDocumentSchema
    .nullable()
    .describe('The final phase review, when the autonomy level asks for one'),
});

/** `POST /v1/runs/:id/interventions`. */
export const interventionBodySchema = z.strictObject({
  kind: interventionKindSchema.describe('pause, resume, stop or steer'),
  instruction: z
    .string()
    .max(10_000)
    .optional()
    .describe(
      'Required for steer: the agent’s next instruction (stored with hidden characters as ⟨U+…⟩ markers, delivered as stored)',
    ),
});

export const interventionResponseSchema = z.object({
  run: runDocumentSchema,
  intervention: interventionDocumentSchema,
});

/** `GET /v1/runs/:id/interventions`. */
export const interventionListQuerySchema = z.strictObject({
  after: z.coerce.number().int().min(0).optional().describe('Only interventions after this time (epoch ms)'),
});

export const interventionListResponseSchema = z.object({ items: z.array(interventionDocumentSchema) });

export type CreateRunBody = z.input<typeof createRunBodySchema>;
export type RunListQuery = z.input<typeof runListQuerySchema>;
export type RunListResponse = z.infer<typeof runListResponseSchema>;
export type RunResponse = z.infer<typeof runResponseSchema>;
export type RunDetailResponse = z.infer<typeof runDetailResponseSchema>;
export type CheckpointBody = z.input<typeof checkpointBodySchema>;
export type CheckpointResponse = z.infer<typeof checkpointResponseSchema>;
export type CompleteRunResponse = z.infer<typeof completeRunResponseSchema>;
export type InterventionBody = z.input<typeof interventionBodySchema>;
export type InterventionResponse = z.infer<typeof interventionResponseSchema>;
export type InterventionListResponse = z.infer<typeof interventionListResponseSchema>;

const tags = ['runs'];
const params = runParamsSchema;

/** The runs routes: create, read, list, phase checkpoints, completion and interventions. */
export const runRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/v1/runs',
    tags,
    body: createRunBodySchema,
    response: { 201: runResponseSchema },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/v1/runs',
    tags,
    query: runListQuerySchema,
    response: { 200: runListResponseSchema },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id',
    tags,
    params,
    response: { 200: runDetailResponseSchema },
  }),
  checkpoint: defineRoute({
    method: 'POST',
    path: '/v1/runs/:id/checkpoint',
    tags,
    params,
    body: checkpointBodySchema,
    response: { 200: checkpointResponseSchema },
  }),
  complete: defineRoute({
    method: 'POST',
    path: '/v1/runs/:id/complete',
    tags,
    params,
    body: completeRunBodySchema,
    response: { 200: completeRunResponseSchema },
  }),
  intervene: defineRoute({
    method: 'POST',
    path: '/v1/runs/:id/interventions',
    tags,
    params,
    body: interventionBodySchema,
    response: { 200: interventionResponseSchema },
  }),
  interventions: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/interventions',
    tags,
    params,
    query: interventionListQuerySchema,
    response: { 200: interventionListResponseSchema },
  }),
};
