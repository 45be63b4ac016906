import * as client from 'openid-client';
import type { OidcProviderProcess } from './oidc-provider-process.js';
import { createProviderBrowser } from './provider-sign-in.js';

/**
 * A JWT access token for `resource` that the provider issues to its MCP client after `login` signs in
 * through its pages (authorization code with PKCE and a resource indicator), as an MCP client gets one.
 */
export async function providerAccessToken(
  provider: OidcProviderProcess,
  options: { login: string; resource: string },
): Promise<string> {
  const config = await client.discovery(
    new URL(provider.issuer),
    provider.mcpClientId,
    undefined,
    client.None(),
    {
      execute: [client.allowInsecureRequests],
    },
  );
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: 'http://127.0.0.1:4444/callback',
    scope: 'openid mcp',
    resource: options.resource,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const back = await createProviderBrowser(provider.issuer).signIn(url.href, options.login);
  const tokens = await client.authorizationCodeGrant(
    config,
    back,
    { pkceCodeVerifier: verifier },
    { resource: options.resource },
  );
  return tokens.access_token;
}
