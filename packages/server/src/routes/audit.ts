import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import { auditRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import type { Services } from '../services/index.js';

function badActorName(message: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `actorName: ${message}`, {
    field: 'actorName',
    fields: [{ field: 'actorName', message }],
  });
}

/** The audit actor (`user:…` or `agent:…`) of a person's or an agent's name; both are unique. */
async function actorOfName(ctx: AppContext, name: string, actor: string | undefined): Promise<string> {
  if (actor !== undefined) throw badActorName('give actor or actorName, not both');
  const [person, agents] = await ctx.store.read(
    async (tx) => [await tx.getUserByName(name), await tx.listAgents()] as const,
  );
  const agent = agents.find((candidate) => candidate.name === name);
  if (person && agent) {
    throw badActorName(
      `both a person and an agent are named ${name}; filter by actor=user:${person.id} or actor=agent:${agent.id}`,
    );
  }
  if (person) return `user:${person.id}`;
  if (agent) return `agent:${agent.id}`;
  throw badActorName(`no person or agent is named ${name}`);
}

/** The audit trail: query, export as JSON Lines, verify the chain and its signed checkpoints, the public key. */
export async function auditRoutes(app: FastifyInstance, ctx: AppContext, services: Services): Promise<void> {
  registerRoute(app, routes.query, async (request) => {
    requireUser(request, 'viewer');
    const { kind, actorName, subject, since, until, limit, cursor, order } = request.query;
    const actor =
      actorName === undefined ? request.query.actor : await actorOfName(ctx, actorName, request.query.actor);
    return services.audit.query({
      limit,
      order,
      ...(kind === undefined ? {} : { kind }),
      ...(actor === undefined ? {} : { actor }),
      ...(subject === undefined ? {} : { subject }),
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
      ...(cursor === undefined ? {} : { cursor }),
    });
  });

  registerRoute(app, routes.export, async (request, reply) => {
    requireUser(request, 'tech_lead');
    void reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    void reply.header('content-disposition', 'attachment; filename="gatehouse-audit.jsonl"');
    return reply.send(Readable.from(services.audit.exportLines()));
  });

  registerRoute(app, routes.verify, async (request) => {
    requireUser(request, 'viewer');
    return services.audit.verify();
  });

  registerRoute(app, routes.key, async (request) => {
    requireUser(request, 'viewer');
    return services.audit.publicKey();
  });
}
