import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  reviewCommentBodySchema,
  reviewCommentListResponseSchema,
  reviewCommentParamsSchema,
  reviewCommentResponseSchema,
  reviewDiffQuerySchema,
  reviewDiffResponseSchema,
  reviewEditBodySchema,
  reviewEditResponseSchema,
  reviewFileQuerySchema,
  reviewFileResponseSchema,
  reviewFilesResponseSchema,
  reviewListResponseSchema,
  reviewParamsSchema,
  reviewResolveBodySchema,
  reviewResponseSchema,
  reviewVerdictBodySchema,
  reviewVerdictResponseSchema,
  runReviewsParamsSchema,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

// Who may write is checked before the request is validated, so a refusal never depends on the input.
const developer = async (request: FastifyRequest) => {
  requireUser(request, 'developer');
};
const developerOrAgent = async (request: FastifyRequest) => {
  if (requireAuthenticated(request).kind === 'user') requireUser(request, 'developer');
};

/** Reviews of phase branches: files, diffs, comments, verdicts and edits in the browser. */
export async function reviewRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['reviews'];
  const reviews = services.reviews;

  app.get(
    '/v1/runs/:id/reviews',
    { schema: { tags, params: runReviewsParamsSchema, response: { 200: reviewListResponseSchema } } },
    async (request) => ({ items: await reviews.list(requireAuthenticated(request), request.params.id) }),
  );

  app.get(
    '/v1/reviews/:id',
    { schema: { tags, params: reviewParamsSchema, response: { 200: reviewResponseSchema } } },
    async (request) => reviews.get(requireAuthenticated(request), request.params.id),
  );

  app.get(
    '/v1/reviews/:id/files',
    { schema: { tags, params: reviewParamsSchema, response: { 200: reviewFilesResponseSchema } } },
    async (request) => reviews.files(requireAuthenticated(request), request.params.id),
  );

  app.get(
    '/v1/reviews/:id/diff',
    {
      schema: {
        tags,
        params: reviewParamsSchema,
        querystring: reviewDiffQuerySchema,
        response: { 200: reviewDiffResponseSchema },
      },
    },
    async (request) => reviews.diff(requireAuthenticated(request), request.params.id, request.query.path),
  );

  app.get(
    '/v1/reviews/:id/file',
    {
      schema: {
        tags,
        params: reviewParamsSchema,
        querystring: reviewFileQuerySchema,
        response: { 200: reviewFileResponseSchema },
      },
    },
    async (request) => ({
      file: await reviews.file(requireAuthenticated(request), {
        reviewId: request.params.id,
        path: request.query.path,
        side: request.query.side,
      }),
    }),
  );

  app.put(
    '/v1/reviews/:id/file',
    {
      preValidation: developer,
      schema: {
        tags,
        params: reviewParamsSchema,
        body: reviewEditBodySchema,
        response: { 200: reviewEditResponseSchema },
      },
    },
    async (request) =>
      reviews.edit(requireAuthenticated(request), { reviewId: request.params.id, ...request.body }),
  );

  app.get(
    '/v1/reviews/:id/comments',
    { schema: { tags, params: reviewParamsSchema, response: { 200: reviewCommentListResponseSchema } } },
    async (request) => ({ items: await reviews.comments(requireAuthenticated(request), request.params.id) }),
  );

  app.post(
    '/v1/reviews/:id/comments',
    {
      preValidation: developerOrAgent,
      schema: {
        tags,
        params: reviewParamsSchema,
        body: reviewCommentBodySchema,
        response: { 201: reviewCommentResponseSchema },
      },
    },
    async (request, reply) => {
      const comment = await reviews.comment(requireAuthenticated(request), request.params.id, request.body);
      return reply.status(201).send({ comment });
    },
  );

  app.post(
    '/v1/reviews/:id/comments/:commentId/resolve',
    {
      preValidation: developerOrAgent,
      schema: {
        tags,
        params: reviewCommentParamsSchema,
        body: reviewResolveBodySchema,
        response: { 200: reviewCommentResponseSchema },
      },
    },
    async (request) => ({
      comment: await reviews.resolve(requireAuthenticated(request), {
        reviewId: request.params.id,
        commentId: request.params.commentId,
        resolved: request.body.resolved,
      }),
    }),
  );

  app.post(
    '/v1/reviews/:id/verdicts',
    {
      preValidation: developer,
      schema: {
        tags,
        params: reviewParamsSchema,
        body: reviewVerdictBodySchema,
        response: { 200: reviewVerdictResponseSchema },
      },
    },
    async (request) => ({
      verdicts: await reviews.verdict(requireAuthenticated(request), request.params.id, request.body),
    }),
  );
}
