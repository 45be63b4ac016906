import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { bearerOf, requireAuthenticated, requireUser, SESSION_COOKIE } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { SESSION_TTL_MS } from '../services/people/sessions.js';
import { agentSchema, nameSchema, sessionSchema, signingKeySchema, userSchema } from './people-schemas.js';

const loginBody = z.strictObject({
  name: nameSchema.describe('Login name'),
  password: z.string().min(1).max(200).describe('Password'),
});

const linkBody = z.strictObject({
  token: z
    .string()
    .regex(/^ghl_[A-Za-z0-9_-]{20,100}$/, 'a login link token looks like ghl_…')
    .describe('The one-time token from the login link'),
});

const keyBody = z.strictObject({
  publicKey: z.string().min(40).max(1000).describe('Ed25519 public key: PEM, or the raw 32 bytes in base64'),
  challenge: z
    .string()
    .regex(
      /^ghk_[A-Za-z0-9_-]{20,100}$/,
      'a key challenge looks like ghk_…; get one from GET /v1/me/keys/challenge',
    )
    .describe('The one-time challenge from GET /v1/me/keys/challenge'),
  proof: z
    .string()
    .min(80)
    .max(200)
    .describe(
      "Ed25519 signature (base64) of core's keyProofText({ challenge, userId }) made with the new key",
    ),
  password: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Your password; needed when you signed in more than 5 minutes ago'),
});

const passwordBody = z.strictObject({
  currentPassword: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Needed when you have a password and signed in more than 5 minutes ago'),
  newPassword: z.string().min(12).max(200).describe('12 to 200 characters, not your login name'),
});

const challengeResponse = z.object({
  challenge: z.string().describe("Sign core's keyProofText({ challenge, userId }) with the key you register"),
  expiresAt: z.number().describe('Epoch ms; the challenge works once, until then'),
});

const meResponse = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    user: userSchema,
    keys: z.array(signingKeySchema),
    hasPassword: z.boolean().describe('false: signing out needs a new login link to come back'),
  }),
  z.object({ kind: z.literal('agent'), agent: agentSchema }),
]);

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
    { schema: { tags, security: [], body: loginBody, response: { 200: sessionSchema } } },
    async (request, reply) => {
      const session = await services.sessions.login({ ...request.body, ip: request.ip });
      setSessionCookie(reply, ctx, session.token, SESSION_TTL_MS / 1000);
      return session;
    },
  );

  app.post(
    '/v1/auth/link',
    { schema: { tags, security: [], body: linkBody, response: { 200: sessionSchema } } },
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
        response: {
          200: z.object({
            ok: z.literal(true),
            hasPassword: z
              .boolean()
              .describe('false: the person has no password and needs a new login link to sign in again'),
          }),
        },
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
    { schema: { tags, body: passwordBody, response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (request) => {
      const user = requireUser(request, 'viewer');
      await services.sessions.setPassword(user, request.body);
      return { ok: true as const };
    },
  );

  app.get('/v1/me', { schema: { tags, response: { 200: meResponse } } }, async (request) => {
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
    { schema: { tags, response: { 200: challengeResponse } } },
    async (request) => {
      const user = requireUser(request, 'viewer');
      return services.users.keyChallenge(user.id);
    },
  );

  app.post(
    '/v1/me/keys',
    { schema: { tags, body: keyBody, response: { 201: z.object({ key: signingKeySchema }) } } },
    async (request, reply) => {
      const user = requireUser(request, 'viewer');
      const key = await services.users.registerKey(user, request.body);
      return reply.status(201).send({ key });
    },
  );
}
