import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import { authRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { bearerOf, requireAuthenticated, requireUser, SESSION_COOKIE } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { siteOrigin } from '../http/site-origin.js';
import type { Services } from '../services/index.js';
import { SESSION_TTL_MS } from '../services/people/sessions.js';

function setSessionCookie(reply: FastifyReply, ctx: AppContext, token: string, maxAgeSeconds: number): void {
  const secure = ctx.config.publicUrl?.startsWith('https:') ? '; Secure' : '';
  const value = `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
  void reply.header('set-cookie', value);
}

/** Sign in with a password or a one-time link, sign out, who am I, signing keys. */
export async function authRoutes(app: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.login, async (request, reply) => {
    const session = await services.sessions.login({ ...request.body, ip: request.ip });
    setSessionCookie(reply, ctx, session.token, SESSION_TTL_MS / 1000);
    return session;
  });

  registerRoute(app, routes.loginWithLink, async (request, reply) => {
    const session = await services.sessions.loginWithLink({ token: request.body.token, ip: request.ip });
    setSessionCookie(reply, ctx, session.token, SESSION_TTL_MS / 1000);
    return session;
  });

  registerRoute(app, routes.logout, async (request, reply) => {
    const user = requireUser(request, 'viewer');
    const { hasPassword } = await services.sessions.logout(user.id, bearerOf(request));
    setSessionCookie(reply, ctx, '', 0);
    const signOutUrl = await services.sso.signOutUrl(user.id, siteOrigin(ctx.config, request));
    return { ok: true as const, hasPassword, ...(signOutUrl === null ? {} : { signOutUrl }) };
  });

  registerRoute(app, routes.setPassword, async (request) => {
    const user = requireUser(request, 'viewer');
    // A password would outlive the person's access at the provider, where their access is decided.
    if (await services.sso.isLinked(user.id)) {
      throw new GatehouseError(
        'FORBIDDEN',
        'you sign in through single sign-on; Gatehouse keeps no password for you',
      );
    }
    await services.sessions.setPassword(user, request.body);
    return { ok: true as const };
  });

  registerRoute(app, routes.me, async (request) => {
    const principal = requireAuthenticated(request);
    if (principal.kind === 'agent')
      return { kind: 'agent' as const, agent: await services.agents.get(principal.id) };
    const [user, keys, hasPassword, singleSignOn] = await Promise.all([
      services.users.get(principal.id),
      services.users.listKeys(principal.id),
      services.users.hasPassword(principal.id),
      services.sso.isLinked(principal.id),
    ]);
    return { kind: 'user' as const, user, keys, hasPassword, ...(singleSignOn ? { singleSignOn } : {}) };
  });

  registerRoute(app, routes.keyChallenge, async (request) => {
    const user = requireUser(request, 'viewer');
    return services.users.keyChallenge(user.id);
  });

  registerRoute(app, routes.registerKey, async (request, reply) => {
    const user = requireUser(request, 'viewer');
    const key = await services.users.registerKey(user, request.body);
    return reply.status(201).send({ key });
  });

  registerRoute(app, routes.listKeys, async (request) => {
    const user = requireUser(request, 'viewer');
    return { keys: await services.users.listKeys(user.id) };
  });

  registerRoute(app, routes.renameKey, async (request) => {
    const user = requireUser(request, 'viewer');
    return { key: await services.users.renameKey(user.id, request.params.keyId, request.body.name) };
  });

  registerRoute(app, routes.revokeKey, async (request) => {
    const user = requireUser(request, 'viewer');
    await services.users.revokeKey(user.id, request.params.keyId);
    return { ok: true as const };
  });
}
