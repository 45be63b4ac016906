import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { assertAllowedOrigin, createOriginPolicy } from '../http/origin.js';
import type { Services } from '../services/index.js';
import { siteUrlOf } from '../services/notifications/notice.js';
import { mcpUnauthenticated } from './mcp-oauth.js';

/** The bearer token of the Authorization header; the session cookie is not accepted here. */
export function headerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : null;
}

/**
 * This server's own API, at the address the caller reached it on: the MCP tools call the HTTP API
 * like any client (same auth, validation and rules), without knowing the configured host or port.
 */
export function ownApiUrl(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${socket.localPort}`;
}

/**
 * MCP over Streamable HTTP at `/mcp` (POST, GET, DELETE), authenticated by the bearer token, when
 * the app was built with MCP endpoints.
 */
export async function mcpRoutes(app: FastifyInstance, ctx: AppContext, _services: Services): Promise<void> {
  if (ctx.mcp === null) return;
  // A client that declares URL-mode elicitation is sent to a pending gate's page in the web app.
  const handler = ctx.mcp.agent({ log: ctx.log, gatePages: siteUrlOf(ctx) });
  const isOwnOrigin = createOriginPolicy(ctx.config);
  app.addHook('onClose', async () => {
    await handler.close();
  });
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      // A page may not reach /mcp, not even through a rebound DNS name (the MCP transport's rule).
      assertAllowedOrigin(request, isOwnOrigin);
      const token = headerToken(request);
      // A cookie alone is refused so that a web page can never drive MCP with a reviewer's session.
      if (token === null || request.principal.kind === 'anonymous') {
        throw mcpUnauthenticated(ctx, request, {
          path: '/mcp',
          message: 'send an agent token (or a person’s token) as Authorization: Bearer',
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
