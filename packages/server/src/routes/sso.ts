import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ssoRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { SESSION_COOKIE } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { siteOrigin } from '../http/site-origin.js';
import type { Services } from '../services/index.js';
import { SESSION_TTL_MS } from '../services/people/sessions.js';
import { SSO_STATE_TTL_MS, type SsoAttempt } from '../services/people/sso.js';

const ATTEMPT_COOKIE = 'gatehouse_sso';

function secureFlag(origin: string): string {
  return origin.startsWith('https:') ? '; Secure' : '';
}

/** Lax, not Strict: the provider's redirect back is a cross-site navigation that must carry it. */
function attemptCookie(origin: string, attempt: SsoAttempt | null): string {
  const value = attempt === null ? '' : Buffer.from(JSON.stringify(attempt)).toString('base64url');
  const maxAge = attempt === null ? 0 : SSO_STATE_TTL_MS / 1000;
  return `${ATTEMPT_COOKIE}=${value}; Path=/v1/auth/sso; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureFlag(origin)}`;
}

function readAttempt(request: FastifyRequest): SsoAttempt | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== ATTEMPT_COOKIE) continue;
    try {
      const value = JSON.parse(Buffer.from(rest.join('='), 'base64url').toString()) as Partial<SsoAttempt>;
      const fields = [value.state, value.nonce, value.verifier, value.returnTo];
      if (fields.every((field) => typeof field === 'string')) return value as SsoAttempt;
    } catch {
      return null;
    }
  }
  return null;
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
}

/** Single sign-on: the sign-in screen's settings, the start at the provider and its callback. */
export async function ssoRoutes(app: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.ssoSettings, async () => services.sso.settings());

  registerRoute(app, routes.ssoStart, async (request, reply) => {
    const origin = siteOrigin(ctx.config, request);
    const { url, attempt } = await services.sso.start({ origin, returnTo: request.query.returnTo ?? '/' });
    return noStore(reply).header('set-cookie', attemptCookie(origin, attempt)).redirect(url, 302);
  });

  registerRoute(app, routes.ssoCallback, async (request, reply) => {
    const origin = siteOrigin(ctx.config, request);
    // The attempt cookie goes whatever the outcome: a refused callback is never tried twice.
    void reply.header('set-cookie', attemptCookie(origin, null));
    const { session, returnTo } = await services.sso.finish({
      origin,
      callbackUrl: new URL(request.url, origin),
      attempt: readAttempt(request),
      ip: request.ip,
    });
    const sessionCookie = `${SESSION_COOKIE}=${session.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_MS / 1000}${secureFlag(origin)}`;
    return noStore(reply)
      .header('set-cookie', [attemptCookie(origin, null), sessionCookie])
      .redirect(returnTo, 302);
  });
}
