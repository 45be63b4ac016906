import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GatehouseError } from 'gatehouse-hitl-core';
import {
  gitInfoRefsQuerySchema,
  gitSmartHttpResponseSchema,
  runParamsSchema as params,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { toGatehouseError } from '../http/error-handler.js';
import type { Services } from '../services/index.js';
import type { GitAnswer, GitRequest } from '../services/workspace/git-hosting.js';

const UPLOAD_TYPE = 'application/x-git-upload-pack-request';
const RECEIVE_TYPE = 'application/x-git-receive-pack-request';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isStream(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && typeof (body as Readable).pipe === 'function';
}

/** The request as the hosting service takes it; a POST must carry the service's own content type. */
function gitRequest(request: FastifyRequest, runId: string, contentType: string | null): GitRequest {
  const type = header(request, 'content-type')?.split(';')[0]?.trim();
  if (contentType !== null && (type !== contentType || !isStream(request.body))) {
    throw new GatehouseError('VALIDATION_FAILED', `content-type must be ${contentType}`, {
      field: 'content-type',
    });
  }
  return {
    principal: request.principal,
    runId,
    contentType: type,
    contentEncoding: header(request, 'content-encoding'),
    gitProtocol: header(request, 'git-protocol'),
    remoteAddr: request.ip,
    body: contentType === null ? null : (request.body as Readable),
  };
}

function send(reply: FastifyReply, answer: GitAnswer): FastifyReply {
  return reply.status(answer.status).headers(answer.headers).send(answer.body);
}

/**
 * Git's smart HTTP for each run's repository (`git clone <api>/v1/runs/<id>/workspace.git`), under
 * the API's credentials: a bearer token, or HTTP Basic with the token as the password. Errors are
 * plain text, which git prints as `remote: …`; a 401 asks for Basic so git's credential helpers answer.
 */
export async function gitRoutes(base: FastifyInstance, _ctx: AppContext, services: Services): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const schema = { hide: true, tags: ['workspace'], params } as const;
  const response = { 200: gitSmartHttpResponseSchema };

  // Pushes stream through to git as they arrive: never parsed, never held whole in memory.
  app.addContentTypeParser([UPLOAD_TYPE, RECEIVE_TYPE], (_request, payload, done) => done(null, payload));
  app.setErrorHandler((error, request, reply) => {
    const refusal = toGatehouseError(error);
    if (refusal.code === 'INTERNAL') request.log.error({ err: error }, 'git request failed');
    if (refusal.status === 401) void reply.header('www-authenticate', 'Basic realm="Gatehouse"');
    if (refusal.status === 429) void reply.header('retry-after', '60');
    void reply
      .status(refusal.status)
      .type('text/plain; charset=utf-8')
      .send(`${refusal.message} (${refusal.code})\n`);
  });

  app.get(
    '/v1/runs/:id/workspace.git/info/refs',
    { schema: { ...schema, querystring: gitInfoRefsQuerySchema, response } },
    async (request, reply) =>
      send(
        reply,
        await services.workspace.git.advertise(
          gitRequest(request, request.params.id, null),
          request.query.service,
        ),
      ),
  );

  app.post(
    '/v1/runs/:id/workspace.git/git-upload-pack',
    { schema: { ...schema, response } },
    async (request, reply) =>
      send(
        reply,
        await services.workspace.git.uploadPack(gitRequest(request, request.params.id, UPLOAD_TYPE)),
      ),
  );

  app.post(
    '/v1/runs/:id/workspace.git/git-receive-pack',
    { schema: { ...schema, response } },
    async (request, reply) =>
      send(
        reply,
        await services.workspace.git.receivePack(gitRequest(request, request.params.id, RECEIVE_TYPE)),
      ),
  );
}
