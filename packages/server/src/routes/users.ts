import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createUserBodySchema,
  loginLinkResponseSchema,
  updateUserBodySchema,
  userListResponseSchema,
  userParamsSchema,
  userResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** People, managed by admins. */
export async function userRoutes(base: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['people'];

  app.get('/v1/users', { schema: { tags, response: { 200: userListResponseSchema } } }, async (request) => {
    requireUser(request, 'admin');
    return { users: await services.users.list() };
  });

  app.post(
    '/v1/users',
    { schema: { tags, body: createUserBodySchema, response: { 201: userResponseSchema } } },
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
        params: userParamsSchema,
        response: { 201: loginLinkResponseSchema },
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
        params: userParamsSchema,
        body: updateUserBodySchema,
        response: { 200: userResponseSchema },
      },
    },
    async (request) => {
      const admin = requireUser(request, 'admin');
      return { user: await services.users.update(admin.id, request.params.id, request.body) };
    },
  );
}
