import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { SsoConfig } from './sso-config.js';

/** OAuth for MCP over HTTP (docs/mcp-gateway.md): bearer JWTs from the single sign-on provider. */
export interface McpOAuthConfig {
  /** The name of the agent whose rights an OAuth client's calls use; the token's person is who it acts for (GATEHOUSE_MCP_OAUTH_AGENT). */
  agentName: string;
}

/** The MCP endpoints' paths; a token's audience must be one of them on this server's origin. */
export const MCP_RESOURCE_PATHS = ['/mcp', '/mcp/gateway'] as const;

/** Who a verified token says the client acts for. */
export interface TokenActor {
  user: string;
  groups: string[];
}

/** Verifies a bearer JWT for this server's MCP resources; null when it is not one, or not valid. */
export type BearerJwtVerifier = (token: string, origin: string) => Promise<TokenActor | null>;

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function groupsOf(payload: JWTPayload, claim: string): string[] {
  const value = payload[claim];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

interface DiscoveredKeys {
  issuer: string;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/** Reads the provider's discovery document once (again after a failure) for its issuer and JWKS. */
function discoverKeys(issuer: string): () => Promise<DiscoveredKeys> {
  let found: Promise<DiscoveredKeys> | null = null;
  const load = async (): Promise<DiscoveredKeys> => {
    const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`the provider's discovery document answered ${response.status}`);
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (typeof metadata.issuer !== 'string' || typeof metadata.jwks_uri !== 'string') {
      throw new Error("the provider's discovery document names no issuer or jwks_uri");
    }
    return { issuer: metadata.issuer, keys: createRemoteJWKSet(new URL(metadata.jwks_uri)) };
  };
  return () => {
    found ??= load().catch((error: unknown) => {
      found = null;
      throw error;
    });
    return found;
  };
}

/**
 * Verifies the provider's JWT access tokens with `jose`: signature (the provider's JWKS), issuer,
 * audience (this server's `/mcp` or `/mcp/gateway`) and expiry. Anything else (an agent token, a
 * session) is not a JWT and is left to the token table.
 */
export function createBearerJwtVerifier(sso: SsoConfig): BearerJwtVerifier {
  const keys = discoverKeys(sso.issuer);
  return async (token, origin) => {
    if (!JWT.test(token)) return null;
    try {
      const provider = await keys();
      const { payload } = await jwtVerify(token, provider.keys, {
        issuer: provider.issuer,
        audience: MCP_RESOURCE_PATHS.map((path) => `${origin}${path}`),
        requiredClaims: ['sub', 'exp'],
      });
      return { user: payload.sub as string, groups: groupsOf(payload, sso.groupsClaim) };
    } catch {
      return null;
    }
  };
}
