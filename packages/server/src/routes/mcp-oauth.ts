import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import { mcpOAuthRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { registerRoute } from '../http/register-route.js';
import { siteOrigin } from '../http/site-origin.js';

/** The metadata URL of one MCP endpoint (RFC 9728: the path follows `/.well-known/oauth-protected-resource`). */
function metadataUrl(origin: string, path: string): string {
  return `${origin}/.well-known/oauth-protected-resource${path}`;
}

/**
 * The 401 of an MCP endpoint; with OAuth configured its details name the endpoint's metadata, which
 * the error handler puts in `WWW-Authenticate: Bearer resource_metadata="…"`.
 */
export function mcpUnauthenticated(
  ctx: AppContext,
  request: FastifyRequest,
  endpoint: { path: string; message: string },
): GatehouseError {
  const { path, message } = endpoint;
  if (ctx.config.sso === null || ctx.config.mcpOAuth === null)
    return new GatehouseError('UNAUTHENTICATED', message);
  return new GatehouseError(
    'UNAUTHENTICATED',
    "send an agent token, or an access token from the OpenID provider named in this endpoint's metadata, as Authorization: Bearer",
    { resourceMetadata: metadataUrl(siteOrigin(ctx.config, request), path) },
  );
}

/** Protected resource metadata (RFC 9728) of `/mcp` and `/mcp/gateway`, naming the provider. */
export async function mcpOAuthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const metadata = (request: FastifyRequest, path: string) => {
    const { sso, mcpOAuth } = ctx.config;
    if (sso === null || mcpOAuth === null) {
      throw new GatehouseError(
        'NOT_FOUND',
        'OAuth for MCP is not configured on this server (GATEHOUSE_MCP_OAUTH_AGENT with GATEHOUSE_SSO_ISSUER)',
      );
    }
    return {
      resource: `${siteOrigin(ctx.config, request)}${path}`,
      authorization_servers: [sso.issuer],
      bearer_methods_supported: ['header'],
      resource_name: path === '/mcp' ? 'Gatehouse' : 'Gatehouse MCP gateway',
    };
  };
  registerRoute(app, routes.protectedResource, async (request) => metadata(request, '/mcp/gateway'));
  registerRoute(app, routes.protectedResourceAgent, async (request) => metadata(request, '/mcp'));
  registerRoute(app, routes.protectedResourceGateway, async (request) => metadata(request, '/mcp/gateway'));
}
