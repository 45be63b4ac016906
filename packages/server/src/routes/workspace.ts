import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  runParamsSchema as params,
  workspaceDiffQuerySchema,
  workspaceDiffResponseSchema,
  workspaceFileQuerySchema,
  workspaceFileResponseSchema,
  workspaceFilesQuerySchema,
  workspaceFilesResponseSchema,
  workspaceLogQuerySchema,
  workspaceLogResponseSchema,
  workspaceResponseSchema,
  workspaceShowQuerySchema,
  workspaceShowResponseSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { defined } from '../http/defined.js';
import { requireAuthenticated } from '../http/principal.js';
import type { Services } from '../services/index.js';

/** `scheme://host[:port]` the request was sent to: the clone URL's base when no public URL is set. */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** A run's workspace: its clone URL and branches, and its files, history and diffs at any ref. */
export async function workspaceRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspace'];
  const workspace = services.workspace;

  app.get(
    '/v1/runs/:id/workspace',
    { schema: { tags, params, response: { 200: workspaceResponseSchema } } },
    async (request) => workspace.summary(requireAuthenticated(request), request.params.id, originOf(request)),
  );

  app.get(
    '/v1/runs/:id/workspace/files',
    {
      schema: {
        tags,
        params,
        querystring: workspaceFilesQuerySchema,
        response: { 200: workspaceFilesResponseSchema },
      },
    },
    async (request) =>
      workspace.files(requireAuthenticated(request), request.params.id, defined(request.query)),
  );

  app.get(
    '/v1/runs/:id/workspace/file',
    {
      schema: {
        tags,
        params,
        querystring: workspaceFileQuerySchema,
        response: { 200: workspaceFileResponseSchema },
      },
    },
    async (request) => workspace.file(requireAuthenticated(request), request.params.id, request.query),
  );

  app.get(
    '/v1/runs/:id/workspace/log',
    {
      schema: {
        tags,
        params,
        querystring: workspaceLogQuerySchema,
        response: { 200: workspaceLogResponseSchema },
      },
    },
    async (request) =>
      workspace.log(requireAuthenticated(request), request.params.id, defined(request.query)),
  );

  app.get(
    '/v1/runs/:id/workspace/show',
    {
      schema: {
        tags,
        params,
        querystring: workspaceShowQuerySchema,
        response: { 200: workspaceShowResponseSchema },
      },
    },
    async (request) => workspace.show(requireAuthenticated(request), request.params.id, request.query),
  );

  app.get(
    '/v1/runs/:id/workspace/diff',
    {
      schema: {
        tags,
        params,
        querystring: workspaceDiffQuerySchema,
        response: { 200: workspaceDiffResponseSchema },
      },
    },
    async (request) =>
      workspace.diff(requireAuthenticated(request), request.params.id, defined(request.query)),
  );
}
