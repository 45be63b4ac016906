import { GatehouseError } from 'gatehouse-hitl-core';
import * as oidc from 'openid-client';
import { hashToken } from '../../auth/secrets.js';
import { roleForGroups, type SsoConfig } from '../../auth/sso-config.js';
import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';
import { insertSession, type SessionResult } from './sessions.js';
import { accountForSignIn, type ProviderPerson } from './sso-accounts.js';
import { createSsoProvider } from './sso-provider.js';

/** A sign-in started at the provider lasts 10 minutes. */
export const SSO_STATE_TTL_MS = 10 * 60 * 1000;

/** What the browser keeps between the start and the callback (an HttpOnly cookie bound to it). */
export interface SsoAttempt {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

/** Sign-in through an OpenID provider: authorization code with PKCE, state and nonce. */
export interface SsoService {
  /** What the sign-in screen shows. */
  settings(): { enabled: boolean; providerName: string | null };
  /** The provider's authorization URL and what the browser must keep until the callback. */
  start(input: { origin: string; returnTo: string }): Promise<{ url: string; attempt: SsoAttempt }>;
  /** Checks the provider's answer and starts a session for the mapped account. */
  finish(input: {
    origin: string;
    callbackUrl: URL;
    attempt: SsoAttempt | null;
    ip: string;
  }): Promise<{ session: SessionResult; returnTo: string }>;
  /** Whether the person signs in through the configured provider. */
  isLinked(userId: string): Promise<boolean>;
  /** The provider's end-session URL for a person who signed in through it; null otherwise. */
  signOutUrl(userId: string, origin: string): Promise<string | null>;
}

export const SSO_CALLBACK_PATH = '/v1/auth/sso/callback';

function notConfigured(): GatehouseError {
  return new GatehouseError(
    'NOT_FOUND',
    'single sign-on is not configured on this server (GATEHOUSE_SSO_ISSUER)',
  );
}

const UNKNOWN_ATTEMPT = 'this sign-in is unknown, used or expired; start again from the sign-in page';

function groupsOf(claims: Record<string, unknown> | undefined, claim: string): string[] | null {
  const value = claims?.[claim];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : null;
}

/** openid-client wraps the check that failed ("unexpected JWT "aud" claim value") in a general one. */
function innermostMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) {
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}

function wantedName(claims: Record<string, unknown>): string | null {
  for (const key of ['preferred_username', 'email']) {
    const value = claims[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

/** Creates the single sign-on service; every method refuses with NOT_FOUND when SSO is not configured. */
export function createSsoService(ctx: AppContext): SsoService {
  const config: SsoConfig | null = ctx.config.sso;
  const provider = config === null ? null : createSsoProvider(config);

  function configured(): { config: SsoConfig; provider: ReturnType<typeof createSsoProvider> } {
    if (config === null || provider === null) throw notConfigured();
    return { config, provider };
  }

  async function refuse(error: GatehouseError, data: Record<string, unknown>, userId: string | null = null) {
    await commit(ctx, ({ audit }) =>
      audit({ kind: 'login.failed', actor: 'anonymous', subject: userId, data: { via: 'sso', ...data } }),
    );
    return error;
  }

  async function isLinked(userId: string): Promise<boolean> {
    if (config === null) return false;
    const identities = await ctx.store.read((tx) => tx.listSsoIdentitiesOf(userId));
    return identities.length > 0;
  }

  /** The state works once: its revocation is the fence between two racing callbacks. */
  async function useState(state: string): Promise<boolean> {
    return commit(ctx, async ({ tx }) => {
      const record = await tx.getToken(hashToken(state));
      if (record?.kind !== 'sso_state' || record.revokedAt !== null) return false;
      if (record.expiresAt !== null && record.expiresAt <= tx.now) return false;
      return tx.revokeToken(record.tokenHash, tx.now);
    });
  }

  async function exchange(
    oidcConfig: oidc.Configuration,
    callbackUrl: URL,
    attempt: SsoAttempt,
    ip: string,
  ): Promise<oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers> {
    const providerError = callbackUrl.searchParams.get('error');
    if (providerError !== null) {
      const description = callbackUrl.searchParams.get('error_description') ?? providerError;
      throw await refuse(
        new GatehouseError('UNAUTHENTICATED', `the provider did not sign you in: ${description}`),
        { reason: providerError, ip },
      );
    }
    try {
      return await oidc.authorizationCodeGrant(oidcConfig, callbackUrl, {
        pkceCodeVerifier: attempt.verifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      const message = innermostMessage(error);
      throw await refuse(
        new GatehouseError('UNAUTHENTICATED', `the provider's answer was refused: ${message}`),
        { reason: 'token_refused', detail: message, ip },
      );
    }
  }

  async function personOf(
    settings: SsoConfig,
    oidcConfig: oidc.Configuration,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
    ip: string,
  ): Promise<ProviderPerson> {
    const idClaims = tokens.claims() as (Record<string, unknown> & { sub: string; iss: string }) | undefined;
    if (idClaims === undefined) throw new GatehouseError('UNAUTHENTICATED', 'the provider sent no id token');
    let claims: Record<string, unknown> = idClaims;
    // Many providers put groups only in the userinfo answer.
    if (groupsOf(claims, settings.groupsClaim) === null) {
      claims = { ...(await oidc.fetchUserInfo(oidcConfig, tokens.access_token, idClaims.sub)), ...idClaims };
    }
    const groups = groupsOf(claims, settings.groupsClaim) ?? [];
    const role = roleForGroups(settings.roles, groups);
    if (role === null) {
      const named = groups.length === 0 ? 'you are in no group' : `your groups (${groups.join(', ')})`;
      throw await refuse(
        new GatehouseError(
          'FORBIDDEN',
          `${named} at ${settings.providerName} map to no Gatehouse role; an admin can add one to GATEHOUSE_SSO_ROLES`,
          { groups },
        ),
        { reason: 'no_mapped_group', issuer: idClaims.iss, providerSubject: idClaims.sub, groups, ip },
      );
    }
    return { issuer: idClaims.iss, subject: idClaims.sub, wantedName: wantedName(claims), role };
  }

  return {
    settings: () => ({ enabled: config !== null, providerName: config?.providerName ?? null }),

    async start({ origin, returnTo }) {
      const { config: settings, provider: op } = configured();
      const oidcConfig = await op.configuration();
      const attempt: SsoAttempt = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        returnTo,
      };
      await commit(ctx, ({ tx }) =>
        tx.insertToken({
          tokenHash: hashToken(attempt.state),
          kind: 'sso_state',
          subjectId: 'sso',
          createdAt: tx.now,
          expiresAt: tx.now + SSO_STATE_TTL_MS,
          revokedAt: null,
        }),
      );
      const url = oidc.buildAuthorizationUrl(oidcConfig, {
        redirect_uri: `${origin}${SSO_CALLBACK_PATH}`,
        scope: settings.scopes,
        state: attempt.state,
        nonce: attempt.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(attempt.verifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, attempt };
    },

    async finish({ callbackUrl, attempt, ip }) {
      const { config: settings, provider: op } = configured();
      const state = callbackUrl.searchParams.get('state');
      if (attempt === null || state === null || attempt.state !== state || !(await useState(state))) {
        throw await refuse(new GatehouseError('UNAUTHENTICATED', UNKNOWN_ATTEMPT), {
          reason: 'unknown_state',
          ip,
        });
      }
      const oidcConfig = await op.configuration();
      const tokens = await exchange(oidcConfig, callbackUrl, attempt, ip);
      const person = await personOf(settings, oidcConfig, tokens, ip);
      const outcome = await commit(ctx, async (tools) => {
        const account = await accountForSignIn(tools, person, () => ctx.ids.next('user'));
        if (account.status === 'refused') return account;
        return { status: 'signed-in' as const, session: await insertSession(tools, account.user, 'sso', ip) };
      });
      if (outcome.status === 'refused') {
        throw await refuse(outcome.error, { reason: 'disabled', ip }, outcome.userId);
      }
      return { session: outcome.session, returnTo: attempt.returnTo };
    },

    isLinked,

    async signOutUrl(userId, origin) {
      if (config === null || provider === null || !(await isLinked(userId))) return null;
      const oidcConfig = await provider.configuration().catch(() => null);
      if (oidcConfig?.serverMetadata().end_session_endpoint === undefined) return null;
      return oidc.buildEndSessionUrl(oidcConfig, {
        client_id: config.clientId,
        post_logout_redirect_uri: `${origin}/login`,
      }).href;
    },
  };
}
