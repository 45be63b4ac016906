import { defineRoute } from '../route-table/define.js';
import { hostLoginLinkBodySchema, hostLoginLinkResponseSchema } from './users.js';

/** The header that carries the secret from the running server's own `server.json`. */
export const HOST_SECRET_HEADER = 'x-gatehouse-host-secret';

/** What only a process on the server host that can read the data dir can do. */
export const hostRoutes = {
  issueLoginLink: defineRoute({
    method: 'POST',
    path: '/v1/host/login-link',
    tags: ['people'],
    security: [],
    description: `From the server host only, with the secret from the data dir's server.json in ${HOST_SECRET_HEADER}.`,
    body: hostLoginLinkBodySchema,
    response: { 201: hostLoginLinkResponseSchema },
  }),
};
