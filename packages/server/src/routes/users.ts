import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { roleSchema } from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { nameSchema, userIdSchema, userSchema } from './people-schemas.js';

const createBody = z.strictObject({
  name: nameSchema.describe('Login name, unique'),
  password: z.string().min(12).max(200).describe('At least 12 characters'),
  role: roleSchema.describe('viewer < developer < tech_lead < admin'),
});

const patchBody = z
  .strictObject({
    role: roleSchema.optional().describe('New role; applies to the next request'),
    disabled: z.boolean().optional().describe('true revokes every session of the person'),
  })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, {
    message: 'give role or disabled',
    path: ['role'],
  });

/** People, managed by admins. */
export async function userRoutes(base: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['people'];

  app.get(
    '/v1/users',
    { schema: { tags, response: { 200: z.object({ users: z.array(userSchema) }) } } },
    async (request) => {
      requireUser(request, 'admin');
      return { users: await services.users.list() };
    },
  );

  app.post(
    '/v1/users',
    { schema: { tags, body: createBody, response: { 201: z.object({ user: userSchema }) } } },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      const user = await services.users.create(admin.id, request.body);
      return reply.status(201).send({ user });
    },
  );

  app.post(
    '/v1/users/:id/login-link',
    {
      schema: {
        tags,
        params: z.strictObject({ id: userIdSchema }),
        response: {
          201: z.object({
            token: z.string().describe('One-time login link token (ghl_…); shown only this once'),
            expiresAt: z.number().describe('Epoch ms; the link works once, until then'),
            path: z.string().describe('Where the person opens it: /login#token=…, after the server address'),
          }),
        },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, 'admin');
      const link = await services.users.issueLoginLink(admin.id, request.params.id);
      return reply.status(201).send({ ...link, path: `/login#token=${link.token}` });
    },
  );

  app.patch(
    '/v1/users/:id',
    {
      schema: {
        tags,
        params: z.strictObject({ id: userIdSchema }),
        body: patchBody,
        response: { 200: z.object({ user: userSchema }) },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return { user: await services.users.update(admin.id, request.params.id, request.body) };
    },
  );
}
