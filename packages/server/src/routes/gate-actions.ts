import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  assignBodySchema,
  consumeBodySchema,
  consumeResponseSchema,
  decideBatchBodySchema,
  decideBatchResponseSchema,
  decideBodySchema,
  decideResponseSchema,
  extendBodySchema,
  gateResponseSchema,
  gateParamsSchema as params,
  steerFailedBodySchema,
  steerFailedResponseSchema,
  withdrawBodySchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAgent, requireUser } from '../http/principal.js';
import { plainResponseSerializer } from '../http/response-serializer.js';
import type { Services } from '../services/index.js';
import { ruleDocument } from '../services/policy/rule-service.js';

/** Deciding, batch deciding, snoozing, assigning, consuming, withdrawing and reopening gates. */
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
      schema: { tags, params, body: decideBodySchema, response: { 200: decideResponseSchema } },
      serializerCompiler: plainResponseSerializer,
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      const { remember, ...rest } = request.body;
      const result = await services.gates.decide(user, request.params.id, {
        ...rest,
        rememberScope: remember?.scope,
        rememberTtlSeconds: remember?.ttlSeconds,
        rememberMatch: remember?.match,
      });
      const rule = result.rule ?? null;
      return {
        gate: result.gate,
        decision: result.decision,
        rule: rule === null ? null : ruleDocument(rule),
      };
    },
  );

  app.post(
    '/v1/gates/decide-batch',
    { schema: { tags, body: decideBatchBodySchema, response: { 200: decideBatchResponseSchema } } },
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
        body: extendBodySchema,
        response: { 200: gateResponseSchema },
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
        body: assignBodySchema,
        response: { 200: gateResponseSchema },
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
        body: consumeBodySchema,
        response: { 200: consumeResponseSchema },
      },
    },
    async (request) => {
      const agent = requireAgent(request);
      return services.gates.consume(agent, request.params.id, request.body.payloadHash);
    },
  );

  app.post(
    '/v1/gates/:id/withdraw',
    {
      schema: {
        tags,
        params,
        body: withdrawBodySchema,
        response: { 200: gateResponseSchema },
        description:
          'The agent that asked no longer needs the decision: its pending gate is cancelled (audited as gate.cancelled with withdrawn: true), the people told of it see it ended',
      },
    },
    async (request) => {
      const agent = requireAgent(request);
      return { gate: await services.gates.withdraw(agent, request.params.id, request.body.reason) };
    },
  );

  app.post(
    '/v1/gates/:id/steer-failed',
    {
      schema: {
        tags,
        params,
        body: steerFailedBodySchema,
        response: { 200: steerFailedResponseSchema },
      },
    },
    async (request) => {
      const agent = requireAgent(request);
      return services.gates.steerFailed(agent, request.params.id, request.body.reason);
    },
  );
}
