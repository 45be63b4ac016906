import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dryRunBodySchema,
  dryRunResponseSchema,
  policyVersionListResponseSchema,
  policyVersionParamsSchema,
  policyVersionResponseSchema,
  policyViewSchema,
  replacePolicyBodySchema,
  replacePolicyResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** The policy: read, replace (validated, versioned, audited), history, dry run. */
export async function policyRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['policy'];

  // Agents read the rules too (guardrails context), so they know what to ask about before acting.
  app.get('/v1/policy', { schema: { tags, response: { 200: policyViewSchema } } }, async (request) => {
    if (requireAuthenticated(request).kind === 'user') requireUser(request, 'viewer');
    return services.policies.get();
  });

  app.put(
    '/v1/policy',
    {
      schema: {
        tags,
        body: replacePolicyBodySchema,
        response: { 200: replacePolicyResponseSchema },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return services.policies.replace(admin.id, request.body);
    },
  );

  app.post(
    '/v1/policy/dry-run',
    { schema: { tags, body: dryRunBodySchema, response: { 200: dryRunResponseSchema } } },
    async (request) => {
      requireUser(request, 'developer');
      return services.policies.dryRun(request.body);
    },
  );

  app.get(
    '/v1/policy/versions',
    { schema: { tags, response: { 200: policyVersionListResponseSchema } } },
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
        params: policyVersionParamsSchema,
        response: { 200: policyVersionResponseSchema },
      },
    },
    async (request) => {
      requireUser(request, 'viewer');
      return services.policies.version(request.params.version);
    },
  );
}
