import type { FastifyInstance } from 'fastify';
import { gateActionRoutes as routes } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../context.js';
import { requireAgent, requireUser } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { plainResponseSerializer } from '../http/response-serializer.js';
import { invalidInput } from '../services/gates/gate-input.js';
import type { Services } from '../services/index.js';
import { ruleDocument } from '../services/policy/rule-service.js';
import { decisionSpan } from '../telemetry/gate-requests.js';

/** Deciding, batch deciding, snoozing, assigning, consuming, withdrawing and reopening gates. */
export async function gateActionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  services: Services,
): Promise<void> {
  registerRoute(
    app,
    routes.decide,
    async (request) => {
      const user = requireUser(request, 'developer');
      const { remember, ...rest } = request.body;
      if (rest.whitelist !== undefined && rest.option !== 'whitelist')
        throw invalidInput('whitelist', 'a whitelist scope goes only with option whitelist');
      const gate = { id: request.params.id, option: rest.option };
      const result = await decisionSpan(ctx, request, gate, () =>
        services.gates.decide(user, request.params.id, {
          ...rest,
          rememberScope: remember?.scope,
          rememberTtlSeconds: remember?.ttlSeconds,
          rememberMatch: remember?.match,
        }),
      );
      const rule = result.rule ?? null;
      return {
        gate: result.gate,
        decision: result.decision,
        rule: rule === null ? null : ruleDocument(rule),
      };
    },
    { serializerCompiler: plainResponseSerializer },
  );

  registerRoute(app, routes.decideBatch, async (request) => {
    const user = requireUser(request, 'developer');
    return { results: await services.gates.decideBatch(user, request.body) };
  });

  registerRoute(app, routes.extend, async (request) => {
    const user = requireUser(request, 'developer');
    return { gate: await services.gates.extend(user, request.params.id, request.body.seconds) };
  });

  registerRoute(app, routes.assign, async (request) => {
    // Below tech_lead only a current assignee may delegate; the service checks that.
    const user = requireUser(request, 'developer');
    return { gate: await services.gates.assign(user, request.params.id, request.body.assignees) };
  });

  registerRoute(app, routes.consume, async (request) => {
    const agent = requireAgent(request);
    return services.gates.consume(agent, request.params.id, request.body.payloadHash);
  });

  registerRoute(app, routes.withdraw, async (request) => {
    const agent = requireAgent(request);
    return { gate: await services.gates.withdraw(agent, request.params.id, request.body.reason) };
  });

  registerRoute(app, routes.steerFailed, async (request) => {
    const agent = requireAgent(request);
    return services.gates.steerFailed(agent, request.params.id, request.body.reason);
  });
}
