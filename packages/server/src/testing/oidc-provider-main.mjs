// A real OpenID provider (oidc-provider) for the tests, run as a process of its own on 127.0.0.1.
// It prints one JSON line, {"issuer": "http://127.0.0.1:<port>"}, once it listens.
// Options come as JSON in the first argument: see OidcProviderOptions in oidc-provider-process.ts.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { decodeJwt, importJWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');
const accounts = new Map(options.accounts.map((account) => [account.login, account]));

// The provider's signing key, so the misbehaving account below can be answered with a token it signed.
const signingJwk = {
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: 'test-provider-key',
  alg: 'RS256',
  use: 'sig',
};

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const page = (title, body) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: options.clientId,
      client_secret: options.clientSecret,
      // Native: a loopback redirect matches on any port, so the server under test may listen anywhere.
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/v1/auth/sso/callback'],
      post_logout_redirect_uris: ['http://127.0.0.1/login'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
    {
      client_id: options.mcpClientId,
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [signingJwk] },
  cookies: { keys: ['gatehouse-test-provider-cookies'] },
  pkce: { required: () => true },
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username'],
    email: ['email', 'email_verified'],
    groups: ['groups'],
  },
  scopes: ['openid', 'offline_access', 'mcp'],
  async findAccount(_ctx, id) {
    const account = accounts.get(id);
    if (!account) return undefined;
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          name: account.name,
          preferred_username: account.login,
          email: `${account.login}@example.test`,
          email_verified: true,
          groups: account.groups,
        };
      },
    };
  },
  // Access tokens for a resource carry the person's groups, as providers do with a groups mapper.
  async extraTokenClaims(_ctx, token) {
    if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
    return { groups: accounts.get(token.accountId)?.groups ?? [] };
  },
  features: {
    devInteractions: { enabled: true },
    rpInitiatedLogout: {
      enabled: true,
      async logoutSource(ctx, form) {
        ctx.body = page(
          'Sign out',
          `${form}<h1>Sign out of the test provider?</h1><button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>`,
        );
      },
      async postLogoutSuccessSource(ctx) {
        ctx.body = page('Signed out', '<h1>You are signed out of the test provider</h1>');
      },
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined,
      useGrantedResource: () => true,
      async getResourceServerInfo(_ctx, resourceIndicator) {
        return {
          scope: 'mcp',
          audience: resourceIndicator,
          accessTokenTTL: options.accessTokenTtlSeconds ?? 600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
});
// The provider's own warnings about development settings are noise in test output.
provider.on('server_error', (_ctx, error) => process.stderr.write(`${error.stack}\n`));

// An account with `idTokenAudience` gets id tokens made out to another client, properly signed:
// what a misconfigured or malicious provider sends, for the relying party to refuse.
provider.use(async (ctx, next) => {
  await next();
  const idToken = ctx.path === '/token' ? ctx.body?.id_token : undefined;
  if (typeof idToken !== 'string') return;
  const claims = decodeJwt(idToken);
  const audience = accounts.get(claims.sub)?.idTokenAudience;
  if (audience === undefined) return;
  const key = await importJWK(signingJwk, 'RS256');
  ctx.body = {
    ...ctx.body,
    id_token: await new SignJWT({ ...claims, aud: audience })
      .setProtectedHeader({ alg: 'RS256', kid: signingJwk.kid })
      .sign(key),
  };
});

server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
