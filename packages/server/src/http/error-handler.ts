import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { GatehouseError, isGatehouseError } from 'gatehouse-hitl-core';
import { isStorageFailure } from '../write-health.js';
import { isWebAppPage, sendWebAppPage } from './web-app.js';

type IssueLike = { instancePath?: string; message?: string; params?: { issue?: { path?: PropertyKey[] } } };

function fieldOf(issue: IssueLike, context: string | undefined): string {
  const path = issue.params?.issue?.path;
  const joined =
    path && path.length > 0
      ? path.map(String).join('.')
      : (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  return joined === '' ? (context ?? 'body') : joined;
}

/** Turns any thrown error into the wire shape `{ error: { code, message, details } }`. */
export function toGatehouseError(error: unknown, options: { bodyLimit?: number } = {}): GatehouseError {
  if (isGatehouseError(error)) return error;
  if (isStorageFailure(error)) {
    return new GatehouseError(
      'SERVICE_UNAVAILABLE',
      'the database refuses writes now; try again shortly',
      {},
      error,
    );
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext;
    const fields = error.validation.map((issue) => ({
      field: fieldOf(issue as IssueLike, context),
      message: issue.message ?? 'invalid',
    }));
    const first = fields[0];
    return new GatehouseError('VALIDATION_FAILED', `${first?.field}: ${first?.message}`, { fields });
  }
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatehouseError(
        'PAYLOAD_TOO_LARGE',
        `body: larger than the ${options.bodyLimit ?? 'configured'} bytes limit (GATEHOUSE_BODY_LIMIT_BYTES)`,
        { field: 'body', limit: options.bodyLimit ?? null },
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatehouseError('VALIDATION_FAILED', 'content-type must be application/json', {
        field: 'content-type',
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatehouseError('VALIDATION_FAILED', 'body: a JSON body is required', { field: 'body' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new GatehouseError('VALIDATION_FAILED', 'body: not valid JSON', { field: 'body' });
    case 'FST_ERR_RATE_LIMIT':
      return new GatehouseError('RATE_LIMITED', 'too many requests; try again shortly');
    default:
      break;
  }
  if (fastifyError.statusCode === 400 && fastifyError instanceof SyntaxError) {
    return new GatehouseError('VALIDATION_FAILED', 'body: not valid JSON', { field: 'body' });
  }
  if (
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return new GatehouseError('VALIDATION_FAILED', fastifyError.message);
  }
  return new GatehouseError('INTERNAL', 'internal error', {}, error);
}

/** The seconds a 429 asks the caller to wait: from the error's details, else a minute. */
function retryAfterSeconds(details: Readonly<Record<string, unknown>>): number {
  const { retryAfterSeconds: seconds, retryAfterMs: ms } = details;
  if (typeof seconds === 'number' && seconds > 0) return Math.ceil(seconds);
  if (typeof ms === 'number' && ms > 0) return Math.ceil(ms / 1000);
  return 60;
}

function setErrorHeaders(reply: FastifyReply, error: GatehouseError): void {
  if (error.status === 401) {
    // An MCP endpoint with OAuth names its protected resource metadata (RFC 9728).
    const metadata = error.details.resourceMetadata;
    const extra = typeof metadata === 'string' ? `, resource_metadata="${metadata}"` : '';
    void reply.header('www-authenticate', `Bearer realm="gatehouse"${extra}`);
  }
  if (error.status === 429) void reply.header('retry-after', String(retryAfterSeconds(error.details)));
}

export function registerErrorHandler(
  app: FastifyInstance,
  options: { webApp?: boolean; bodyLimit?: number } = {},
): void {
  app.setErrorHandler((error, request, reply) => {
    const gatehouseError = toGatehouseError(error, options);
    if (gatehouseError.code === 'INTERNAL') request.log.error({ err: error }, 'request failed');
    // A refused commit arrives as the driver's error; say once why the request got a 503.
    if (gatehouseError.code === 'SERVICE_UNAVAILABLE' && !isGatehouseError(error))
      request.log.warn({ err: error }, 'the database refused the request');
    setErrorHeaders(reply, gatehouseError);
    void reply.status(gatehouseError.status).send(gatehouseError.toJSON());
  });
  app.setNotFoundHandler((request, reply) => {
    if (options.webApp && isWebAppPage(request)) return sendWebAppPage(reply);
    const error = new GatehouseError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
    void reply.status(404).send(error.toJSON());
  });
}
