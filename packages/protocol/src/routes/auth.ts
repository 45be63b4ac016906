import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { nameSchema } from './ids.js';
import { agentDocumentSchema, signingKeyDocumentSchema, userDocumentSchema } from './people.js';

/** `POST /v1/auth/login`. */
export const loginBodySchema = z.strictObject({
  name: nameSchema.describe('Login name'),
  password: z.string().min(1).max(200).describe('Password'),
});

/** `POST /v1/auth/link`. */
export const loginLinkBodySchema = z.strictObject({
  token: z
    .string()
    .regex(/^ghl_[A-Za-z0-9_-]{20,100}$/, 'a login link token looks like ghl_…')
    .describe('The one-time token from the login link'),
});

/** The answer of both sign-in routes. */
export const sessionResponseSchema = z.object({
  token: z.string().describe('Session token (ghs_…); also set as the gatehouse_session cookie'),
  expiresAt: z.number().describe('Epoch ms when the session ends'),
  user: userDocumentSchema,
});

/** `POST /v1/auth/logout`. */
export const logoutResponseSchema = z.object({
  ok: z.literal(true),
  hasPassword: z
    .boolean()
    .describe('false: the person has no password and needs a new login link to sign in again'),
  signOutUrl: z
    .string()
    .optional()
    .describe(
      'For a person who signed in through the OpenID provider: its sign-out page, to end that session too',
    ),
});

/** `PUT /v1/me/password`. */
export const passwordBodySchema = z.strictObject({
  currentPassword: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Needed when you have a password and signed in more than 5 minutes ago'),
  newPassword: z.string().min(12).max(200).describe('12 to 200 characters, not your login name'),
});

export const okResponseSchema = z.object({ ok: z.literal(true) });

/** `GET /v1/me`. */
export const meResponseSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    user: userDocumentSchema,
    keys: z.array(signingKeyDocumentSchema),
    hasPassword: z.boolean().describe('false: signing out needs a new login link to come back'),
    singleSignOn: z
      .boolean()
      .optional()
      .describe('true: the person signs in through the OpenID provider, so signing out locks nobody out'),
  }),
  z.object({ kind: z.literal('agent'), agent: agentDocumentSchema }),
]);

/** `GET /v1/me/keys/challenge`. */
export const keyChallengeResponseSchema = z.object({
  challenge: z.string().describe("Sign core's keyProofText({ challenge, userId }) with the key you register"),
  expiresAt: z.number().describe('Epoch ms; the challenge works once, until then'),
});

/** `POST /v1/me/keys`. */
export const registerKeyBodySchema = z.strictObject({
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
  name: z.string().trim().min(1).max(100).optional().describe('What you call this key ("Work laptop")'),
});

export const registerKeyResponseSchema = z.object({ key: signingKeyDocumentSchema });

/** `GET /v1/me/keys`: your signing keys in force, oldest first. */
export const signingKeyListResponseSchema = z.object({ keys: z.array(signingKeyDocumentSchema) });

/** `PATCH /v1/me/keys/:keyId` and `DELETE /v1/me/keys/:keyId`. */
export const signingKeyParamsSchema = z.strictObject({ keyId: z.string().min(1).max(100) });

/** `PATCH /v1/me/keys/:keyId`. */
export const renameKeyBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100).nullable().describe('The new name; null clears it'),
});

export type LoginBody = z.input<typeof loginBodySchema>;
export type LoginLinkBody = z.input<typeof loginLinkBodySchema>;
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;
export type PasswordBody = z.input<typeof passwordBodySchema>;
export type MeResponse = z.infer<typeof meResponseSchema>;
export type KeyChallengeResponse = z.infer<typeof keyChallengeResponseSchema>;
export type RegisterKeyBody = z.input<typeof registerKeyBodySchema>;
export type RegisterKeyResponse = z.infer<typeof registerKeyResponseSchema>;
export type SigningKeyListResponse = z.infer<typeof signingKeyListResponseSchema>;
export type RenameKeyBody = z.input<typeof renameKeyBodySchema>;

const tags = ['sessions'];
const keyParams = signingKeyParamsSchema;

/** Sign in with a password or a one-time link, sign out, who am I, signing keys. */
export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/v1/auth/login',
    tags,
    security: [],
    body: loginBodySchema,
    response: { 200: sessionResponseSchema },
  }),
  loginWithLink: defineRoute({
    method: 'POST',
    path: '/v1/auth/link',
    tags,
    security: [],
    body: loginLinkBodySchema,
    response: { 200: sessionResponseSchema },
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/v1/auth/logout',
    tags,
    response: { 200: logoutResponseSchema },
  }),
  setPassword: defineRoute({
    method: 'PUT',
    path: '/v1/me/password',
    tags,
    body: passwordBodySchema,
    response: { 200: okResponseSchema },
  }),
  me: defineRoute({ method: 'GET', path: '/v1/me', tags, response: { 200: meResponseSchema } }),
  keyChallenge: defineRoute({
    method: 'GET',
    path: '/v1/me/keys/challenge',
    tags,
    response: { 200: keyChallengeResponseSchema },
  }),
  registerKey: defineRoute({
    method: 'POST',
    path: '/v1/me/keys',
    tags,
    body: registerKeyBodySchema,
    response: { 201: registerKeyResponseSchema },
  }),
  listKeys: defineRoute({
    method: 'GET',
    path: '/v1/me/keys',
    tags,
    response: { 200: signingKeyListResponseSchema },
  }),
  renameKey: defineRoute({
    method: 'PATCH',
    path: '/v1/me/keys/:keyId',
    tags,
    params: keyParams,
    body: renameKeyBodySchema,
    response: { 200: registerKeyResponseSchema },
  }),
  revokeKey: defineRoute({
    method: 'DELETE',
    path: '/v1/me/keys/:keyId',
    tags,
    params: keyParams,
    response: { 200: okResponseSchema },
  }),
};
