import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  keyChallengeResponseSchema,
  loginBodySchema,
  loginLinkBodySchema,
  logoutResponseSchema,
  meResponseSchema,
  okResponseSchema,
  passwordBodySchema,
  registerKeyBodySchema,
  registerKeyResponseSchema,
  renameKeyBodySchema,
  sessionResponseSchema,
  signingKeyListResponseSchema,
  signingKeyParamsSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { bearerOf, requireAuthenticated, requireUser, SESSION_COOKIE } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { SESSION_TTL_MS } from '../services/people/sessions.js';

function setSessionCookie(reply: FastifyReply, ctx: AppContext, token: string, maxAgeSeconds: number): void {
  const secure = ctx.config.publicUrl?.startsWith('https:') ? '; Secure' : '';
  const value = `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
  void reply.header('set-cookie', value);
}

/** Sign in with a password or a one-time link, sign out, who am I, signing keys. */
export async function authRoutes(base: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['sessions'];

  app.post(
    '/v1/auth/login',
    { schema: { tags, security: [], body: loginBodySchema, response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      const session = await services.sessions.login({ ...request.body, ip: request.ip });
      setSessionCookie(reply, ctx, session.token, SESSION_TTL_MS / 1000);
      return session;
    },
  );

  app.post(
    '/v1/auth/link',
    { schema: { tags, security: [], body: loginLinkBodySchema, response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      const session = await services.sessions.loginWithLink({ token: request.body.token, ip: request.ip });
      setSessionCookie(reply, ctx, session.token, SESSION_TTL_MS / 1000);
      return session;
    },
  );

  app.post(
    '/v1/auth/logout',
    {
      schema: {
        tags,
        response: { 200: logoutResponseSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request, 'viewer');
      const { hasPassword } = await services.sessions.logout(user.id, bearerOf(request));
      setSessionCookie(reply, ctx, '', 0);
      return { ok: true as const, hasPassword };
    },
  );

  app.put(
    '/v1/me/password',
    { schema: { tags, body: passwordBodySchema, response: { 200: okResponseSchema } } },
    async (request) => {
      const user = requireUser(request, 'viewer');
      await services.sessions.setPassword(user, request.body);
      return { ok: true as const };
    },
  );

  app.get('/v1/me', { schema: { tags, response: { 200: meResponseSchema } } }, async (request) => {
    const principal = requireAuthenticated(request);
    if (principal.kind === 'agent')
      return { kind: 'agent' as const, agent: await services.agents.get(principal.id) };
    const [user, keys, hasPassword] = await Promise.all([
      services.users.get(principal.id),
      services.users.listKeys(principal.id),
      services.users.hasPassword(principal.id),
    ]);
    return { kind: 'user' as const, user, keys, hasPassword };
  });

  app.get(
    '/v1/me/keys/challenge',
    { schema: { tags, response: { 200: keyChallengeResponseSchema } } },
    async (request) => {
      const user = requireUser(request, 'viewer');
      return services.users.keyChallenge(user.id);
    },
  );

  app.post(
    '/v1/me/keys',
    { schema: { tags, body: registerKeyBodySchema, response: { 201: registerKeyResponseSchema } } },
    async (request, reply) => {
      const user = requireUser(request, 'viewer');
      const key = await services.users.registerKey(user, request.body);
      return reply.status(201).send({ key });
    },
  );

  app.get(
    '/v1/me/keys',
    { schema: { tags, response: { 200: signingKeyListResponseSchema } } },
    async (request) => {
      const user = requireUser(request, 'viewer');
      return { keys: await services.users.listKeys(user.id) };
    },
  );

  app.patch(
    '/v1/me/keys/:keyId',
    {
      schema: {
        tags,
        params: signingKeyParamsSchema,
        body: renameKeyBodySchema,
        response: { 200: registerKeyResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request, 'viewer');
      return { key: await services.users.renameKey(user.id, request.params.keyId, request.body.name) };
    },
  );

  app.delete(
    '/v1/me/keys/:keyId',
    { schema: { tags, params: signingKeyParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      const user = requireUser(request, 'viewer');
      await services.users.revokeKey(user.id, request.params.keyId);
      return { ok: true as const };
    },
  );
}
