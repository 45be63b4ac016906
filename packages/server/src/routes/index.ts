import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { Services } from '../services/index.js';
import { agentRoutes } from './agents.js';
import { analysisRoutes } from './analysis.js';
import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { claudeCodeRoutes } from './claude-code.js';
import { confidenceRoutes } from './confidence.js';
import { emailActionRoutes } from './email-actions.js';
import { gateRoutes } from './gates.js';
import { gitRoutes } from './git.js';
import { healthRoutes } from './health.js';
import { hostRoutes } from './host.js';
import { journalRoutes } from './journal.js';
import { mcpRoutes } from './mcp.js';
import { mcpGatewayRoutes } from './mcp-gateway.js';
import { mcpOAuthRoutes } from './mcp-oauth.js';
import { metricsRoutes, registerHttpMetrics } from './metrics.js';
import { notificationRoutes } from './notifications.js';
import { policyRoutes } from './policy.js';
import { reviewHealthRoutes } from './review-health.js';
import { reviewRoutes } from './reviews.js';
import { ruleRoutes } from './rules.js';
import { runRoutes } from './runs.js';
import { searchRoutes } from './search.js';
import { slackRoutes } from './slack.js';
import { slackUserRoutes } from './slack-users.js';
import { ssoRoutes } from './sso.js';
import { streamRoutes } from './streams.js';
import { trustRoutes } from './trust.js';
import { userRoutes } from './users.js';
import { webhookRoutes } from './webhooks.js';
import { whitelistRoutes } from './whitelists.js';
import { workspaceRoutes } from './workspace.js';

/** Every route module, registered under its prefix. */
export async function registerRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  services: Services,
): Promise<void> {
  registerHttpMetrics(app, services);
  await app.register(async (scoped) => healthRoutes(scoped, ctx, services));
  await app.register(async (scoped) => authRoutes(scoped, ctx, services));
  await app.register(async (scoped) => ssoRoutes(scoped, ctx, services));
  await app.register(async (scoped) => userRoutes(scoped, ctx, services));
  const { hostSecret } = ctx;
  if (hostSecret !== null)
    await app.register(async (scoped) => hostRoutes(scoped, ctx, services, hostSecret));
  await app.register(async (scoped) => agentRoutes(scoped, ctx, services));
  await app.register(async (scoped) => auditRoutes(scoped, ctx, services));
  await app.register(async (scoped) => metricsRoutes(scoped, ctx, services));
  await app.register(async (scoped) => gateRoutes(scoped, ctx, services));
  await app.register(async (scoped) => claudeCodeRoutes(scoped, ctx, services));
  await app.register(async (scoped) => ruleRoutes(scoped, ctx, services));
  await app.register(async (scoped) => policyRoutes(scoped, ctx, services));
  await app.register(async (scoped) => runRoutes(scoped, ctx, services));
  await app.register(async (scoped) => reviewRoutes(scoped, ctx, services));
  await app.register(async (scoped) => reviewHealthRoutes(scoped, ctx, services));
  await app.register(async (scoped) => confidenceRoutes(scoped, ctx, services));
  await app.register(async (scoped) => analysisRoutes(scoped, ctx, services));
  await app.register(async (scoped) => whitelistRoutes(scoped, ctx, services));
  await app.register(async (scoped) => trustRoutes(scoped, ctx, services));
  await app.register(async (scoped) => streamRoutes(scoped, ctx, services));
  await app.register(async (scoped) => webhookRoutes(scoped, ctx, services));
  await app.register(async (scoped) => notificationRoutes(scoped, ctx, services));
  await app.register(async (scoped) => emailActionRoutes(scoped, ctx, services));
  await app.register(async (scoped) => mcpRoutes(scoped, ctx, services));
  await app.register(async (scoped) => mcpGatewayRoutes(scoped, ctx, services));
  await app.register(async (scoped) => mcpOAuthRoutes(scoped, ctx));
  await app.register(async (scoped) => journalRoutes(scoped, ctx, services));
  await app.register(async (scoped) => searchRoutes(scoped, ctx, services));
  await app.register(async (scoped) => gitRoutes(scoped, ctx, services));
  await app.register(async (scoped) => workspaceRoutes(scoped, ctx, services));
  await app.register(async (scoped) => slackRoutes(scoped, ctx, services));
  await app.register(async (scoped) => slackUserRoutes(scoped, ctx));
}
