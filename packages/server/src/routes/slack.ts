import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import { slackRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';
import { createSlackApi } from '../services/slack/slack-api.js';
import { handleSlackInteraction } from '../services/slack/slack-interactions.js';
import { SLACK_REQUEST_WINDOW_MS, verifySlackSignature } from '../services/slack/slack-signature.js';

const FORM = 'application/x-www-form-urlencoded';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as sent, for routes that check a signature over it. */
    slackRawBody?: string;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function siteUrl(ctx: AppContext): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/+$/, '');
  return `http://${ctx.config.host}:${ctx.config.port}`;
}

/**
 * Slack's interactivity endpoint. It has no session or token: only a request signed with the
 * signing secret, within five minutes, seen for the first time, gets past the first hook.
 */
export async function slackRoutes(app: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  const api = createSlackApi(ctx.config.slack);
  const deps = {
    ctx,
    gates: services.gates,
    catalog: services.gateTypes,
    api,
    gateUrl: (id: string) => `${siteUrl(ctx)}/gates/${id}`,
  };

  app.addContentTypeParser(FORM, { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    request.slackRawBody = text;
    done(null, Object.fromEntries(new URLSearchParams(text)));
  });

  async function verify(request: FastifyRequest): Promise<void> {
    const secret = ctx.config.slack.signingSecret;
    if (secret === null) {
      throw new GatehouseError(
        'UNAUTHENTICATED',
        'Slack interactions are off: set GATEHOUSE_SLACK_SIGNING_SECRET',
      );
    }
    const check = verifySlackSignature({
      secret,
      timestamp: header(request, 'x-slack-request-timestamp'),
      signature: header(request, 'x-slack-signature'),
      rawBody: request.slackRawBody ?? '',
      now: ctx.clock.now(),
    });
    if (!check.ok) throw new GatehouseError('UNAUTHENTICATED', check.reason);
    const now = ctx.clock.now();
    const first = await ctx.store.transaction((tx) =>
      tx.claimSlackRequest(check.signature, now, now - 2 * SLACK_REQUEST_WINDOW_MS),
    );
    if (!first)
      throw new GatehouseError('UNAUTHENTICATED', 'this Slack request was already received (a replay)');
  }

  registerRoute(
    app,
    routes.interaction,
    async (request) => {
      let payload: unknown;
      try {
        payload = JSON.parse(request.body.payload);
      } catch {
        throw new GatehouseError('VALIDATION_FAILED', 'payload must be JSON', { field: 'payload' });
      }
      return handleSlackInteraction(deps, payload);
    },
    { preValidation: verify },
  );
}
