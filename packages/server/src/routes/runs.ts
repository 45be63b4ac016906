import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  approvalModeSchema,
  autonomyLevelSchema,
  interventionKindSchema,
  phaseTypeSchema,
  runStatusSchema,
} from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { gateWireSchema, runIdSchema } from './gate-schemas.js';
import { agentIdSchema } from './people-schemas.js';
import { interventionWireSchema, resumeWireSchema, runWireSchema } from './run-schemas.js';

const createBody = z.strictObject({
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

const listQuery = z.strictObject({
  agentId: agentIdSchema.optional().describe('Only runs of this agent'),
  status: runStatusSchema.optional().describe('Only runs in this status'),
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('Page size'),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,500}$/, 'a cursor is the nextCursor of the previous page')
    .optional()
    .describe('nextCursor of the previous page'),
});

const params = z.strictObject({ id: runIdSchema });

const checkpointBody = z.strictObject({
  phase: z.number().int().min(1).max(10_000).describe('The phase that just ended, from 1'),
  type: phaseTypeSchema.describe('strategic or tactical'),
  jobComplete: z.boolean().default(false).describe('True once the whole job is done'),
});

const interventionBody = z.strictObject({
  kind: interventionKindSchema.describe('pause, resume, stop or steer'),
  instruction: z
    .string()
    .max(10_000)
    .optional()
    .describe(
      'Required for steer: the agent’s next instruction (stored with hidden characters as ⟨U+…⟩ markers, delivered as stored)',
    ),
});

const interventionsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional().describe('Only interventions after this time (epoch ms)'),
});

const runResponse = z.object({ run: runWireSchema });

function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}

/** Runs: create, read, list, phase checkpoints, completion and interventions. */
export async function runRoutes(base: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['runs'];

  app.post(
    '/v1/runs',
    { schema: { tags, body: createBody, response: { 201: runResponse } } },
    async (request, reply) => {
      const run = await services.runs.create(requireAuthenticated(request), request.body);
      return reply.status(201).send({ run });
    },
  );

  app.get(
    '/v1/runs',
    {
      schema: {
        tags,
        querystring: listQuery,
        response: { 200: z.object({ items: z.array(runWireSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => services.runs.list(requireAuthenticated(request), defined(request.query)),
  );

  app.get(
    '/v1/runs/:id',
    {
      schema: {
        tags,
        params,
        response: { 200: z.object({ run: runWireSchema, resume: resumeWireSchema.nullable() }) },
      },
    },
    async (request) => services.runs.detail(requireAuthenticated(request), request.params.id),
  );

  app.post(
    '/v1/runs/:id/checkpoint',
    {
      schema: {
        tags,
        params,
        body: checkpointBody,
        response: {
          200: z.object({
            freeze: z.boolean().describe('True when the run froze for a phase review'),
            gate: gateWireSchema.nullable().describe('The phase_review gate to wait on'),
            run: runWireSchema,
          }),
        },
      },
    },
    async (request) =>
      services.runs.checkpoint(requireAuthenticated(request), request.params.id, request.body),
  );

  app.post(
    '/v1/runs/:id/complete',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({}).optional(),
        response: {
          200: z.object({
            run: runWireSchema,
            gate: gateWireSchema
              .nullable()
              .describe('The final phase review, when the autonomy level asks for one'),
          }),
        },
      },
    },
    async (request) => services.runs.complete(requireAuthenticated(request), request.params.id),
  );

  app.post(
    '/v1/runs/:id/interventions',
    {
      schema: {
        tags,
        params,
        body: interventionBody,
        response: { 200: z.object({ run: runWireSchema, intervention: interventionWireSchema }) },
      },
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      return services.runs.intervene(user, request.params.id, request.body);
    },
  );

  app.get(
    '/v1/runs/:id/interventions',
    {
      schema: {
        tags,
        params,
        querystring: interventionsQuery,
        response: { 200: z.object({ items: z.array(interventionWireSchema) }) },
      },
    },
    async (request) => ({
      items: await services.runs.interventions(
        requireAuthenticated(request),
        request.params.id,
        request.query.after,
      ),
    }),
  );
}
