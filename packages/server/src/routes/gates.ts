import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GATE_STATUSES,
  gateOutcomeFor,
  gateTypeIdSchema,
  riskLevelSchema,
  timeoutActionSchema,
} from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAgent, requireAuthenticated, requireUser } from '../http/principal.js';
import { plainResponseSerializer } from '../http/response-serializer.js';
import type { Services } from '../services/index.js';
import { assertStillValid } from '../services/streams/stream-credentials.js';
import { gateActionRoutes } from './gate-actions.js';
import { gateIdSchema, gateWireSchema, interventionNoticeSchema, runIdSchema } from './gate-schemas.js';
import { agentIdSchema, userIdSchema } from './people-schemas.js';
import { credentialOf } from './streams.js';

const MAX_TIMEOUT_SECONDS = 30 * 24 * 3600;

const requestBody = z.strictObject({
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

const requestHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'an idempotency key is 1-200 printable ASCII characters')
    .optional()
    .describe('Retries with the same key return the first answer; never a second gate'),
});

const requestResponse = z.object({
  outcome: z.enum(['allowed', 'denied', 'gated']).describe('What the policy (and the run) decided'),
  gate: gateWireSchema.nullable().describe('The gate to wait on when gated'),
  gateId: z.string().nullable().describe('Its id'),
  ruleId: z.string().nullable().describe('The policy rule (or remembered rule) that decided'),
  reason: z.string().describe('Why'),
  payloadHash: z.string().describe('SHA-256 of the action; approvals bind to it'),
  interventions: z.array(interventionNoticeSchema).describe('Interventions not seen yet'),
});

const listQuery = z.strictObject({
  status: z.enum(GATE_STATUSES).optional().describe('Only this status'),
  type: gateTypeIdSchema.optional().describe('Only this gate type'),
  risk: riskLevelSchema.optional().describe('Only this risk'),
  agentId: agentIdSchema.optional(),
  runId: runIdSchema.optional(),
  assignee: userIdSchema.optional().describe('Only gates assigned to this person'),
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('Page size'),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,500}$/, 'a cursor is the nextCursor of the previous page')
    .optional()
    .describe('nextCursor of the previous page'),
});

const params = z.strictObject({ id: gateIdSchema });

const waitQuery = z.strictObject({
  timeoutMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(0)
    .describe('How long to wait for the gate to end, ≤ 60 s; 0 (the default) answers at once'),
});

const viewResponse = z.object({
  gate: gateWireSchema,
  briefing: z.record(z.string(), z.unknown()).nullable().describe('Summary of Action'),
  consumedAt: z.number().nullable().describe('When a one-off approval was used'),
});

function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}

/** Gates: requests from agents, listing, reading and long-polling. */
export async function gateRoutes(base: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['gates'];

  app.post(
    '/v1/gates',
    {
      schema: { tags, body: requestBody, headers: requestHeaders, response: { 200: requestResponse } },
      serializerCompiler: plainResponseSerializer,
    },
    async (request) => {
      const agent = requireAgent(request);
      const key = request.headers['idempotency-key'];
      return services.gates.request(agent, { ...request.body, idempotencyKey: key });
    },
  );

  app.get(
    '/v1/gates',
    {
      schema: {
        tags,
        querystring: listQuery,
        response: { 200: z.object({ items: z.array(gateWireSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = requireAuthenticated(request);
      if (principal.kind === 'user') requireUser(request, 'viewer');
      return services.gates.list(principal, defined(request.query));
    },
  );

  app.get(
    '/v1/gates/:id',
    {
      schema: { tags, params, response: { 200: viewResponse } },
      serializerCompiler: plainResponseSerializer,
    },
    async (request) => {
      const principal = requireAuthenticated(request);
      const view = await services.gates.view(principal, request.params.id);
      return { ...view, briefing: (view.briefing ?? null) as Record<string, unknown> | null };
    },
  );

  app.get(
    '/v1/gates/:id/wait',
    {
      schema: {
        tags,
        params,
        querystring: waitQuery,
        response: {
          200: z.object({
            gate: gateWireSchema,
            outcome: z
              .string()
              .nullable()
              .describe('approved, denied, steered, timed_out, cancelled or an option; null while pending'),
          }),
        },
      },
      serializerCompiler: plainResponseSerializer,
    },
    async (request, reply) => {
      const principal = requireAuthenticated(request);
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort();
      };
      reply.raw.on('close', onClose);
      try {
        const gate = await services.gates.wait(
          principal,
          request.params.id,
          request.query.timeoutMs,
          controller.signal,
        );
        // A caller revoked while it waited learns nothing: the per-request check ran before the wait.
        const credential = request.query.timeoutMs > 0 ? credentialOf(request, principal) : null;
        if (credential !== null) await assertStillValid(ctx, credential);
        return { gate, outcome: gateOutcomeFor(gate) };
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  await gateActionRoutes(app, ctx, services);
}
