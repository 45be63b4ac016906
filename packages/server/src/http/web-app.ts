import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Paths that belong to the API and tools, never to the web app's client-side routes. MCP clients
 * probe /.well-known for OAuth metadata and must get a JSON 404, not a page.
 */
const SERVER_PATHS = /^\/(v1|mcp|docs|metrics|healthz|readyz|\.well-known)(\/|$|\?)/;

/**
 * The web app is script-only from this origin: no inline script, no framing, no outside hosts.
 * Inline styles stay allowed for React's `style` props.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function setPageHeaders(reply: FastifyReply): void {
  void reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  void reply.header('x-content-type-options', 'nosniff');
  void reply.header('referrer-policy', 'no-referrer');
}

/** Whether a request that matched no route is a page load the web app should answer. */
export function isWebAppPage(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !SERVER_PATHS.test(request.url);
}

/**
 * Serves the built web app from `dir` at `/`: hashed assets cached for a year, `index.html` for
 * every client-side route (`/inbox`, `/gates/…`, `/login#token=…`) and never cached.
 * Returns false when `dir` holds no build, so the caller can say so.
 */
export async function registerWebApp(app: FastifyInstance, dir: string): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: dir,
    index: false,
    wildcard: false,
    serve: true,
    setHeaders(reply, path) {
      const immutable = path.startsWith(join(dir, 'assets'));
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      void reply.header('x-content-type-options', 'nosniff');
    },
  });
  return true;
}

/** Answers a client-side route with the app's `index.html`. */
export function sendWebAppPage(reply: FastifyReply): FastifyReply {
  setPageHeaders(reply);
  void reply.header('cache-control', 'no-cache');
  return reply.type('text/html; charset=utf-8').sendFile('index.html');
}
