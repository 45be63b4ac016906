import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { assertAllowedOrigin, createOriginPolicy } from '../http/origin.js';
import type { McpEndpointHandler } from '../mcp-endpoints.js';
import type { Services } from '../services/index.js';
import { headerToken, ownApiUrl } from './mcp.js';
import { mcpUnauthenticated } from './mcp-oauth.js';

/**
 * The MCP gateway at `/mcp/gateway` when GATEHOUSE_MCP_GATEWAY_CONFIG names an `mcpServers` file:
 * the upstreams' tools, resources and prompts, every tool call asked of the policy with the
 * caller's own token. Upstreams connect on the first session, so a server starts while one is down.
 */
export async function mcpGatewayRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  _services: Services,
): Promise<void> {
  const settings = ctx.config.mcpGateway;
  if (settings === null) return;
  const setting = `GATEHOUSE_MCP_GATEWAY_CONFIG (${settings.configFile})`;
  if (ctx.mcp === null) {
    throw new Error(
      `${setting}: this server was built without MCP endpoints; start it with \`gatehouse serve\``,
    );
  }
  let handler: McpEndpointHandler;
  try {
    const config = readFileSync(settings.configFile, 'utf8');
    handler = ctx.mcp.gateway({ config, env: settings.env, log: ctx.log });
  } catch (error) {
    throw new Error(`${setting}: ${(error as Error).message}`);
  }
  const isOwnOrigin = createOriginPolicy(ctx.config);
  app.addHook('onClose', async () => {
    await handler.close();
  });
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp/gateway',
    schema: { hide: true },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      assertAllowedOrigin(request, isOwnOrigin);
      const token = headerToken(request);
      if (token === null || request.principal.kind === 'anonymous') {
        throw mcpUnauthenticated(ctx, request, {
          path: '/mcp/gateway',
          message: 'send an agent token as Authorization: Bearer',
        });
      }
      reply.hijack();
      await handler.handle(request.raw, reply.raw, {
        token,
        apiUrl: ownApiUrl(request.raw.socket),
        body: request.body,
      });
    },
  });
}
