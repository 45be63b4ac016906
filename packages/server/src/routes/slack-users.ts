import type { FastifyInstance } from 'fastify';
import { slackUserRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { createSlackUserService } from '../services/slack/slack-users.js';

/** A person's Slack user id: admins manage anyone's, a person their own. */
export async function slackUserRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const slackUsers = createSlackUserService(ctx);

  registerRoute(app, routes.get, async (request) => {
    const actor = requireUser(request, 'viewer');
    return { slack: await slackUsers.get(actor, request.params.id) };
  });

  registerRoute(app, routes.set, async (request) => {
    const actor = requireUser(request, 'viewer');
    return { slack: await slackUsers.set(actor, request.params.id, request.body.slackUserId) };
  });

  registerRoute(app, routes.remove, async (request) => {
    const actor = requireUser(request, 'viewer');
    await slackUsers.remove(actor, request.params.id);
    return { slack: null };
  });
}
