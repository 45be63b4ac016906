import { GatehouseError } from 'gatehouse-hitl-core';
import * as oidc from 'openid-client';
import type { SsoConfig } from '../../auth/sso-config.js';

/** The provider's discovered configuration, read once and again after a failure. */
export interface SsoProvider {
  configuration(): Promise<oidc.Configuration>;
}

function unreachable(config: SsoConfig, error: unknown): GatehouseError {
  return new GatehouseError(
    'SERVICE_UNAVAILABLE',
    `the OpenID provider at ${config.issuer} could not be reached; try again shortly`,
    { issuer: config.issuer },
    error,
  );
}

/** Reads the provider's discovery document on first use; an http issuer is only ever a loopback one (config.ts). */
export function createSsoProvider(config: SsoConfig): SsoProvider {
  let discovered: Promise<oidc.Configuration> | null = null;
  const auth = config.clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(config.clientSecret);
  const insecure = new URL(config.issuer).protocol === 'http:';
  return {
    configuration() {
      discovered ??= oidc
        .discovery(new URL(config.issuer), config.clientId, undefined, auth, {
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
          timeout: 10,
        })
        .catch((error: unknown) => {
          discovered = null;
          throw unreachable(config, error);
        });
      return discovered;
    },
  };
}
