import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionIdSchema } from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAgent, requireUser } from '../http/principal.js';
import { plainResponseSerializer } from '../http/response-serializer.js';
import type { Services } from '../services/index.js';
import {
  decisionWireSchema,
  gateIdSchema,
  gateWireSchema,
  rememberedRuleWireSchema,
} from './gate-schemas.js';
import { userIdSchema } from './people-schemas.js';

const MAX_SECONDS = 30 * 24 * 3600;

const params = z.strictObject({ id: gateIdSchema });

const decideBody = z.strictObject({
  option: optionIdSchema.describe('One of the gate’s options, e.g. approve, reject, steer, approve_always'),
  reason: z.string().max(2000).optional().describe('Why; shown to the agent'),
  feedback: z.string().max(10_000).optional().describe('Feedback for the agent'),
  instructions: z
    .string()
    .max(10_000)
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
      'Ed25519 signature (base64) over canonical JSON {gateId, option, payloadHash}; required on signed gates',
    ),
  confirmApproval: z
    .boolean()
    .optional()
    .describe('Needed for a steer on a gate that cannot be steered: it is recorded as approve with feedback'),
  remember: z
    .strictObject({
      scope: z
        .enum(['run', 'agent', 'global'])
        .default('run')
        .describe('Where the rule applies; global needs tech_lead'),
      ttlSeconds: z
        .number()
        .int()
        .min(60)
        .max(MAX_SECONDS)
        .optional()
        .describe('Rule expiry; none = until revoked'),
    })
    .optional()
    .describe('For approve_always: how to remember the rule'),
});

const decideResponse = z.object({
  gate: gateWireSchema,
  decision: decisionWireSchema.nullable().describe('Null for a partial N-of-M approval or a view option'),
  rule: rememberedRuleWireSchema.nullable().describe('The rule approve_always created'),
});

const batchBody = z.strictObject({
  gateIds: z.array(gateIdSchema).min(1).max(100).describe('Up to 100 gates'),
  option: optionIdSchema.describe('The option for every gate'),
  reason: z.string().max(2000).optional().describe('Why'),
});

const batchResponse = z.object({
  results: z.array(
    z.object({
      gateId: z.string(),
      ok: z.boolean().describe('Decided'),
      status: z.string().optional().describe('The gate’s status after the decision'),
      error: z
        .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
        .optional()
        .describe('Why this gate was refused'),
    }),
  ),
});

const gateResponse = z.object({ gate: gateWireSchema });

/** Deciding, batch deciding, snoozing, assigning, consuming and reopening gates. */
export async function gateActionRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['gates'];

  app.post(
    '/v1/gates/:id/decide',
    {
      schema: { tags, params, body: decideBody, response: { 200: decideResponse } },
      serializerCompiler: plainResponseSerializer,
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      const { remember, ...rest } = request.body;
      const result = await services.gates.decide(user, request.params.id, {
        ...rest,
        rememberScope: remember?.scope,
        rememberTtlSeconds: remember?.ttlSeconds,
      });
      return { gate: result.gate, decision: result.decision, rule: result.rule ?? null };
    },
  );

  app.post(
    '/v1/gates/decide-batch',
    { schema: { tags, body: batchBody, response: { 200: batchResponse } } },
    async (request) => {
      const user = requireUser(request, 'developer');
      return { results: await services.gates.decideBatch(user, request.body) };
    },
  );

  app.post(
    '/v1/gates/:id/extend',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({
          seconds: z
            .number()
            .int()
            .min(1)
            .max(MAX_SECONDS)
            .describe('New deadline: this many seconds from now'),
        }),
        response: { 200: gateResponse },
      },
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      return { gate: await services.gates.extend(user, request.params.id, request.body.seconds) };
    },
  );

  app.post(
    '/v1/gates/:id/assign',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({
          assignees: z
            .array(userIdSchema)
            .max(50)
            .describe('People who may decide; empty = anyone with the role'),
        }),
        response: { 200: gateResponse },
      },
    },
    async (request) => {
      // Below tech_lead only a current assignee may delegate; the service checks that.
      const user = requireUser(request, 'developer');
      return { gate: await services.gates.assign(user, request.params.id, request.body.assignees) };
    },
  );

  app.post(
    '/v1/gates/:id/consume',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({
          payloadHash: z
            .string()
            .regex(/^[0-9a-f]{64}$/, 'a payload hash is 64 lowercase hex characters')
            .describe('SHA-256 of the action about to run'),
        }),
        response: {
          200: z.object({
            gate: gateWireSchema,
            consumedAt: z.number().nullable().describe('When it was used; null for an approve-always rule'),
            oneOff: z.boolean().describe('False for approve_always, which is not used up'),
          }),
        },
      },
    },
    async (request) => {
      const agent = requireAgent(request);
      return services.gates.consume(agent, request.params.id, request.body.payloadHash);
    },
  );

  app.post(
    '/v1/gates/:id/steer-failed',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({
          reason: z.string().min(1).max(2000).describe('Why the steer could not be applied'),
        }),
        response: {
          200: z.object({
            gate: gateWireSchema.describe('The reopened gate'),
            previousGateId: z.string().describe('The steered gate'),
          }),
        },
      },
    },
    async (request) => {
      const agent = requireAgent(request);
      return services.gates.steerFailed(agent, request.params.id, request.body.reason);
    },
  );
}
