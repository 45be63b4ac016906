import { GatehouseError, isGatehouseError } from '@gatehouse/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
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
export function toGatehouseError(error: unknown): GatehouseError {
  if (isGatehouseError(error)) return error;
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
      return new GatehouseError('PAYLOAD_TOO_LARGE', 'request body is larger than 1 MB');
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

export function registerErrorHandler(app: FastifyInstance, options: { webApp?: boolean } = {}): void {
  app.setErrorHandler((error, request, reply) => {
    const gatehouseError = toGatehouseError(error);
    if (gatehouseError.code === 'INTERNAL') request.log.error({ err: error }, 'request failed');
    void reply.status(gatehouseError.status).send(gatehouseError.toJSON());
  });
  app.setNotFoundHandler((request, reply) => {
    if (options.webApp && isWebAppPage(request)) return sendWebAppPage(reply);
    const error = new GatehouseError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
    void reply.status(404).send(error.toJSON());
  });
}
