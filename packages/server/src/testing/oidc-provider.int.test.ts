import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcProviderProcess, startOidcProvider } from './oidc-provider-process.js';
import { createProviderBrowser } from './provider-sign-in.js';

describe('the test provider process', () => {
  let provider: OidcProviderProcess;
  beforeAll(async () => {
    provider = await startOidcProvider();
  }, 30_000);
  afterAll(async () => {
    await provider?.stop();
  });

  it('runs as a process of its own on 127.0.0.1 and publishes its discovery document', async () => {
    expect(provider.pid).not.toBe(process.pid);
    expect(provider.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metadata = await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json();
    expect(metadata).toEqual(
      expect.objectContaining({
        issuer: provider.issuer,
        code_challenge_methods_supported: ['S256'],
        end_session_endpoint: expect.any(String),
      }),
    );
  });

  it('signs a person in through its login and consent forms and issues a JWT access token with their groups for a resource', async () => {
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
    const resource = 'http://127.0.0.1:9/mcp/gateway';
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:4444/callback',
      scope: 'openid mcp',
      resource,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const back = await createProviderBrowser(provider.issuer).signIn(url.href, 'lee');
    expect(back.origin).toBe('http://127.0.0.1:4444');
    const tokens = await client.authorizationCodeGrant(
      config,
      back,
      { pkceCodeVerifier: verifier },
      { resource },
    );
    const [, payload = ''] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toEqual(
      expect.objectContaining({ iss: provider.issuer, sub: 'lee', aud: resource, groups: ['leads'] }),
    );
  });
});
