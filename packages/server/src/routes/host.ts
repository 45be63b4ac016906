import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import { HOST_SECRET_HEADER, hostRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { registerRoute } from '../http/register-route.js';
import { commit } from '../services/commit.js';
import type { Services } from '../services/index.js';
import { issueLoginLinkFor } from '../services/people/login-link-for.js';

export { HOST_SECRET_HEADER };

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

// The socket's own addresses, not request.ip: a forwarded-for header must not make a caller local.
function isSameHost(request: FastifyRequest): boolean {
  const { remoteAddress, localAddress } = request.raw.socket;
  if (remoteAddress === undefined) return false;
  if (remoteAddress === '::1' || /^(::ffff:)?127\./.test(remoteAddress)) return true;
  return remoteAddress === localAddress;
}

function hasSecret(request: FastifyRequest, secret: string): boolean {
  const given = request.headers[HOST_SECRET_HEADER];
  if (typeof given !== 'string') return false;
  // Equal-length digests: the comparison takes the same time whatever was sent.
  return timingSafeEqual(digest(given), digest(secret));
}

/** What only a process on the server host that can read the data dir can do. */
export async function hostRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  _services: Services,
  hostSecret: string,
): Promise<void> {
  registerRoute(app, routes.issueLoginLink, async (request, reply) => {
    if (!hasSecret(request, hostSecret)) {
      throw new GatehouseError(
        'UNAUTHENTICATED',
        `${HOST_SECRET_HEADER} is missing or wrong; run \`gatehouse admin login-link\` on the server host`,
      );
    }
    if (!isSameHost(request)) {
      throw new GatehouseError(
        'FORBIDDEN',
        'host login links are issued only to a process on the server host',
      );
    }
    const link = await commit(ctx, (tools) => issueLoginLinkFor(tools, request.body.name));
    return reply.status(201).send({ ...link, path: `/login#token=${link.token}` });
  });
}
