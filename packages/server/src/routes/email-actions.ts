import type { FastifyInstance, FastifyReply } from 'fastify';
import { notificationRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';
import { ACTION_PAGE_CSP } from '../services/notifications/email/action-page.js';
import type { ActionPage } from '../services/notifications/email/email-actions.js';

function sendPage(reply: FastifyReply, page: ActionPage): FastifyReply {
  return reply
    .status(page.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', ACTION_PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .send(page.html);
}

/**
 * Emailed decision links: the GET only shows the confirmation page; the form's POST decides.
 * Both answer HTML, with a policy that lets nothing run on the page.
 */
export async function emailActionRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  // The confirmation page is a plain HTML form (no script may run under its policy).
  base.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  registerRoute(base, routes.emailActionPage, async (request, reply) =>
    sendPage(reply, await services.emailActions.view(request.query.token, request.principal)),
  );

  registerRoute(base, routes.emailActionConfirm, async (request, reply) =>
    sendPage(
      reply,
      await services.emailActions.confirm(request.query.token, request.principal, request.body),
    ),
  );
}
