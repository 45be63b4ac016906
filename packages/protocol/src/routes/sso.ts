import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';

/** `GET /v1/auth/sso`: whether the sign-in screen offers single sign-on, and what it calls the provider. */
export const ssoSettingsResponseSchema = z.object({
  enabled: z.boolean().describe('true when an OpenID provider is configured (GATEHOUSE_SSO_ISSUER)'),
  providerName: z
    .string()
    .nullable()
    .describe('What the sign-in button calls the provider (GATEHOUSE_SSO_NAME)'),
});

/** `GET /v1/auth/sso/start`. */
export const ssoStartQuerySchema = z.strictObject({
  returnTo: z
    .string()
    .max(2000)
    .regex(/^\/(?![/\\])/, 'returnTo is a path on this server, starting with one /')
    .optional()
    .describe('Where the browser goes after signing in: a path on this server. @default /'),
});

/** `GET /v1/auth/sso/callback`: the provider's answer, as the provider sends it. */
export const ssoCallbackQuerySchema = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(512).optional(),
    iss: z.string().max(2000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .catchall(z.string().max(4096));

export type SsoSettingsResponse = z.infer<typeof ssoSettingsResponseSchema>;

const tags = ['sessions'];
const redirect = (to: string) => z.null().describe(`Redirect (Location) ${to}`);

/** Sign-in through an OpenID provider: authorization code with PKCE (docs/sso.md). */
export const ssoRoutes = {
  ssoSettings: defineRoute({
    method: 'GET',
    path: '/v1/auth/sso',
    tags,
    security: [],
    response: { 200: ssoSettingsResponseSchema },
  }),
  ssoStart: defineRoute({
    method: 'GET',
    path: '/v1/auth/sso/start',
    tags,
    security: [],
    query: ssoStartQuerySchema,
    response: { 302: redirect("to the provider's sign-in page") },
  }),
  ssoCallback: defineRoute({
    method: 'GET',
    path: '/v1/auth/sso/callback',
    tags,
    security: [],
    query: ssoCallbackQuerySchema,
    response: { 302: redirect('to returnTo, with the gatehouse_session cookie set') },
  }),
};
