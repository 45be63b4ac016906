import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';

/** RFC 9728 protected resource metadata of an MCP endpoint. */
export const protectedResourceMetadataSchema = z.object({
  resource: z.string().describe('The MCP endpoint this metadata is about; the audience its tokens must name'),
  authorization_servers: z
    .array(z.string())
    .describe('The OpenID provider that issues its tokens (GATEHOUSE_SSO_ISSUER)'),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
});

export type ProtectedResourceMetadata = z.infer<typeof protectedResourceMetadataSchema>;

const tags = ['mcp'];
const response = { 200: protectedResourceMetadataSchema };

/** OAuth for MCP over HTTP: where an MCP client learns which provider to get a token from. */
export const mcpOAuthRoutes = {
  protectedResource: defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    tags,
    security: [],
    response,
  }),
  protectedResourceAgent: defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/mcp',
    tags,
    security: [],
    response,
  }),
  protectedResourceGateway: defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/mcp/gateway',
    tags,
    security: [],
    response,
  }),
};
