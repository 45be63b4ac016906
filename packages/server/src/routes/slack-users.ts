import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { putSlackUserBodySchema, slackUserResponseSchema, userParamsSchema } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { createSlackUserService } from '../services/slack/slack-users.js';

/** A person's Slack user id: admins manage anyone's, a person their own. */
export async function slackUserRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const slackUsers = createSlackUserService(ctx);
  const tags = ['people'];
  const schema = { tags, params: userParamsSchema, response: { 200: slackUserResponseSchema } };

  app.get('/v1/users/:id/slack', { schema }, async (request) => {
    const actor = requireUser(request, 'viewer');
    return { slack: await slackUsers.get(actor, request.params.id) };
  });

  app.put('/v1/users/:id/slack', { schema: { ...schema, body: putSlackUserBodySchema } }, async (request) => {
    const actor = requireUser(request, 'viewer');
    return { slack: await slackUsers.set(actor, request.params.id, request.body.slackUserId) };
  });

  app.delete('/v1/users/:id/slack', { schema }, async (request) => {
    const actor = requireUser(request, 'viewer');
    await slackUsers.remove(actor, request.params.id);
    return { slack: null };
  });
}
