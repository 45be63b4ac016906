import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  learnedRuleListQuerySchema,
  learnedRuleListResponseSchema,
  learnedRuleParamsSchema,
  learnedRuleResponseSchema,
  learnedRuleRevokeBodySchema,
  trustAcceptBodySchema,
  trustAcceptResponseSchema,
  trustDismissBodySchema,
  trustProposalListQuerySchema,
  trustProposalListResponseSchema,
  trustProposalParamsSchema,
  trustProposalResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** Tech leads and admins change what is learned; anyone who may decide can report harm. */
const DECIDES_TRUST = 'tech_lead';

/** Trust proposals from the decision history, and the rules people accepted from them. */
export async function trustRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['trust'];

  app.get(
    '/v1/trust/proposals',
    {
      schema: {
        tags,
        querystring: trustProposalListQuerySchema,
        response: { 200: trustProposalListResponseSchema },
      },
    },
    async (request) => {
      requireUser(request, 'viewer');
      return { proposals: await services.trust.proposals({ status: request.query.status }) };
    },
  );

  app.post(
    '/v1/trust/proposals/:id/accept',
    {
      schema: {
        tags,
        params: trustProposalParamsSchema,
        body: trustAcceptBodySchema,
        response: { 200: trustAcceptResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, DECIDES_TRUST);
      return services.trust.accept(user.id, request.params.id, request.body ?? {});
    },
  );

  app.post(
    '/v1/trust/proposals/:id/dismiss',
    {
      schema: {
        tags,
        params: trustProposalParamsSchema,
        body: trustDismissBodySchema,
        response: { 200: trustProposalResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, DECIDES_TRUST);
      return { proposal: await services.trust.dismiss(user.id, request.params.id, request.body ?? {}) };
    },
  );

  app.get(
    '/v1/trust/rules',
    {
      schema: {
        tags,
        querystring: learnedRuleListQuerySchema,
        response: { 200: learnedRuleListResponseSchema },
      },
    },
    async (request) => {
      requireUser(request, 'viewer');
      return { rules: await services.trust.rules({ includeEnded: request.query.includeEnded }) };
    },
  );

  app.post(
    '/v1/trust/rules/:id/revoke',
    {
      schema: {
        tags,
        params: learnedRuleParamsSchema,
        body: learnedRuleRevokeBodySchema,
        response: { 200: learnedRuleResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, DECIDES_TRUST);
      const reason = request.body?.reason;
      return { rule: await services.trust.revoke(user.id, request.params.id, { reason, harmful: false }) };
    },
  );

  app.post(
    '/v1/trust/rules/:id/harmful',
    {
      schema: {
        tags,
        params: learnedRuleParamsSchema,
        body: learnedRuleRevokeBodySchema,
        response: { 200: learnedRuleResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, 'developer');
      const reason = request.body?.reason;
      return { rule: await services.trust.revoke(user.id, request.params.id, { reason, harmful: true }) };
    },
  );
}
