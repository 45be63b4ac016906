import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { streamRoutes as routes } from 'gatehouse-hitl-protocol';
import type { StreamEvent } from 'gatehouse-hitl-store';
import { hashToken } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { bearerOf, type Principal, requireAuthenticated, requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { openSse } from '../http/sse.js';
import type { Services } from '../services/index.js';
import type { StreamCredential } from '../services/streams/stream-credentials.js';
import { isInboxEvent } from '../services/streams/stream-service.js';

/** How long a client waits before reconnecting after the stream drops. */
const RETRY_MS = 2000;

function startSeq(headerId: string | undefined, after: number | undefined): number | null {
  if (headerId !== undefined) return Number(headerId);
  return after ?? null;
}

/** What the stream re-checks while it is open, so a revocation ends it on every node. */
export function credentialOf(
  request: FastifyRequest,
  principal: Exclude<Principal, { kind: 'anonymous' }>,
): StreamCredential | null {
  const token = bearerOf(request);
  return token === null ? null : { tokenHash: hashToken(token), principal };
}

function stream(
  services: Services,
  reply: FastifyReply,
  options: {
    runId: string | null;
    afterSeq: number | null;
    accept(event: StreamEvent): boolean;
    credential: StreamCredential | null;
  },
): void {
  const sink = openSse(reply, { retryMs: RETRY_MS });
  void services.streams.follow({ ...options, sink });
}

/** Server-Sent Events: one stream per run (its agent, or people) and one for reviewers' inboxes. */
export async function streamRoutes(
  app: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  // End open streams before the server waits for its connections to close.
  app.addHook('preClose', async () => services.streams.close());

  registerRoute(app, routes.run, async (request, reply) => {
    const principal = requireAuthenticated(request);
    const run = await services.runs.get(principal, request.params.id);
    stream(services, reply, {
      runId: run.id,
      afterSeq: startSeq(request.headers['last-event-id'], request.query.after),
      accept: () => true,
      credential: credentialOf(request, principal),
    });
    return reply;
  });

  registerRoute(app, routes.inbox, async (request, reply) => {
    const principal = requireUser(request, 'viewer');
    stream(services, reply, {
      runId: null,
      afterSeq: startSeq(request.headers['last-event-id'], request.query.after),
      accept: isInboxEvent,
      credential: credentialOf(request, principal),
    });
    return reply;
  });
}
