import type { FastifyRequest } from 'fastify';

/** Query parameters that carry a credential: an emailed decision link's token. */
const SECRET_PARAMS = /([?&]token=)[^&#]*/gi;

/** The request URL with credential-bearing query values replaced, for logs. */
export function redactedUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Fastify's request log fields, without the emailed links' tokens. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
