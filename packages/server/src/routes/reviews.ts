import type { FastifyInstance, FastifyRequest } from 'fastify';
import { reviewRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAuthenticated, requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

// Who may write is checked before the request is validated, so a refusal never depends on the input.
const developer = {
  preValidation: async (request: FastifyRequest) => {
    requireUser(request, 'developer');
  },
};
const developerOrAgent = {
  preValidation: async (request: FastifyRequest) => {
    if (requireAuthenticated(request).kind === 'user') requireUser(request, 'developer');
  },
};

/** Reviews of phase branches: files, diffs, comments, verdicts and edits in the browser. */
export async function reviewRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const reviews = services.reviews;

  registerRoute(app, routes.listOfRun, async (request) => ({
    items: await reviews.list(requireAuthenticated(request), request.params.id),
  }));

  registerRoute(app, routes.get, async (request) =>
    reviews.get(requireAuthenticated(request), request.params.id),
  );

  registerRoute(app, routes.files, async (request) =>
    reviews.files(requireAuthenticated(request), request.params.id, request.query.since),
  );

  registerRoute(app, routes.diff, async (request) =>
    reviews.diff(requireAuthenticated(request), request.params.id, request.query.path, request.query.since),
  );

  registerRoute(app, routes.file, async (request) => ({
    file: await reviews.file(requireAuthenticated(request), {
      reviewId: request.params.id,
      path: request.query.path,
      side: request.query.side,
    }),
  }));

  registerRoute(
    app,
    routes.edit,
    async (request) =>
      reviews.edit(requireAuthenticated(request), { reviewId: request.params.id, ...request.body }),
    developer,
  );

  registerRoute(app, routes.comments, async (request) => ({
    items: await reviews.comments(requireAuthenticated(request), request.params.id),
  }));

  registerRoute(
    app,
    routes.comment,
    async (request, reply) => {
      const comment = await reviews.comment(requireAuthenticated(request), request.params.id, request.body);
      return reply.status(201).send({ comment });
    },
    developerOrAgent,
  );

  registerRoute(
    app,
    routes.resolve,
    async (request) => ({
      comment: await reviews.resolve(requireAuthenticated(request), {
        reviewId: request.params.id,
        commentId: request.params.commentId,
        resolved: request.body.resolved,
      }),
    }),
    developerOrAgent,
  );

  registerRoute(
    app,
    routes.viewed,
    async (request) => ({
      viewed: await reviews.markViewed(requireAuthenticated(request), request.params.id, request.body),
    }),
    {
      preValidation: async (request: FastifyRequest) => {
        requireUser(request, 'viewer');
      },
    },
  );

  registerRoute(
    app,
    routes.applySuggestion,
    async (request) =>
      reviews.applySuggestion(requireAuthenticated(request), {
        reviewId: request.params.id,
        commentId: request.params.commentId,
      }),
    developer,
  );

  registerRoute(
    app,
    routes.verdict,
    async (request) => ({
      verdicts: await reviews.verdict(requireAuthenticated(request), request.params.id, request.body),
    }),
    developer,
  );

  registerRoute(
    app,
    routes.squashMessage,
    async (request) => ({
      squashMessage: await reviews.editSquashMessage(
        requireAuthenticated(request),
        request.params.id,
        request.body,
      ),
    }),
    developer,
  );

  registerRoute(
    app,
    routes.submit,
    async (request, reply) => {
      const submitted = await reviews.submit(requireAuthenticated(request), request.params.id, request.body);
      return reply.status(201).send(submitted);
    },
    developer,
  );
}
