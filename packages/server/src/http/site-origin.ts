import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.js';

/** This server's origin as the browser or client reaches it: the public URL's when one is configured. */
export function siteOrigin(config: Pick<ServerConfig, 'publicUrl'>, request: FastifyRequest): string {
  if (config.publicUrl !== null) return new URL(config.publicUrl).origin;
  return `${request.protocol}://${request.host}`;
}
