import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import {
  createGatewayHttpHandler,
  GATEWAY_VERSION,
  parseGatewayConfig,
  UpstreamPool,
} from 'gatehouse-hitl-mcp';
import type { AppContext } from '../context.js';
import { assertAllowedOrigin, createOriginPolicy } from '../http/origin.js';
import type { Services } from '../services/index.js';
import { headerToken, ownApiUrl } from './mcp.js';

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
  let upstreams: ReturnType<typeof parseGatewayConfig>;
  try {
    upstreams = parseGatewayConfig(readFileSync(settings.configFile, 'utf8'), settings.env);
  } catch (error) {
    throw new Error(`GATEHOUSE_MCP_GATEWAY_CONFIG (${settings.configFile}): ${(error as Error).message}`);
  }
  const handler = createGatewayHttpHandler({
    connect: () => UpstreamPool.connect(upstreams, GATEWAY_VERSION),
    version: GATEWAY_VERSION,
    verifyToken: false,
    log: ctx.log,
  });
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
        throw new GatehouseError('UNAUTHENTICATED', 'send an agent token as Authorization: Bearer');
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
