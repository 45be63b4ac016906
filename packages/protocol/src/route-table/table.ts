import { agentRoutes } from '../routes/agents.js';
import { analysisRoutes } from '../routes/analysis.js';
import { auditRoutes } from '../routes/audit.js';
import { authRoutes } from '../routes/auth.js';
import { claudeCodeRoutes } from '../routes/claude-code.js';
import { confidenceRoutes } from '../routes/confidence.js';
import { gateActionRoutes } from '../routes/gate-actions.js';
import { gateRoutes } from '../routes/gates.js';
import { healthRoutes } from '../routes/health.js';
import { hostRoutes } from '../routes/host.js';
import { journalRoutes } from '../routes/journal.js';
import { mcpOAuthRoutes } from '../routes/mcp-oauth.js';
import { metricsRoutes } from '../routes/metrics.js';
import { notificationRoutes } from '../routes/notifications.js';
import { policyRoutes } from '../routes/policy.js';
import { reviewHealthRoutes } from '../routes/review-health.js';
import { reviewRoutes } from '../routes/reviews.js';
import { ruleRoutes } from '../routes/rules.js';
import { runRoutes } from '../routes/runs.js';
import { searchRoutes } from '../routes/search.js';
import { slackRoutes, slackUserRoutes } from '../routes/slack.js';
import { ssoRoutes } from '../routes/sso.js';
import { streamRoutes } from '../routes/streams.js';
import { trustRoutes } from '../routes/trust.js';
import { userRoutes } from '../routes/users.js';
import { webhookRoutes } from '../routes/webhooks.js';
import { whitelistRoutes } from '../routes/whitelists.js';
import { workspaceRoutes } from '../routes/workspace.js';
import type { RouteDefinition } from './define.js';

/** Every route of the API by subject; the server registers exactly these. */
export const routeTable = {
  agents: agentRoutes,
  gates: gateRoutes,
  gateActions: gateActionRoutes,
  runs: runRoutes,
  policy: policyRoutes,
  rules: ruleRoutes,
  whitelists: whitelistRoutes,
  trust: trustRoutes,
  confidence: confidenceRoutes,
  analysis: analysisRoutes,
  search: searchRoutes,
  journal: journalRoutes,
  workspace: workspaceRoutes,
  streams: streamRoutes,
  metrics: metricsRoutes,
  health: healthRoutes,
  reviewHealth: reviewHealthRoutes,
  auth: authRoutes,
  sso: ssoRoutes,
  mcpOAuth: mcpOAuthRoutes,
  users: userRoutes,
  host: hostRoutes,
  reviews: reviewRoutes,
  webhooks: webhookRoutes,
  notifications: notificationRoutes,
  audit: auditRoutes,
  slackUsers: slackUserRoutes,
  slack: slackRoutes,
  claudeCode: claudeCodeRoutes,
} as const satisfies Record<string, Record<string, RouteDefinition>>;

/** The table as a flat list with each route's `subject.name`. */
export function listRoutes(): { name: string; route: RouteDefinition }[] {
  return Object.entries(routeTable).flatMap(([subject, routes]) =>
    Object.entries(routes).map(([name, route]) => ({
      name: `${subject}.${name}`,
      route: route as RouteDefinition,
    })),
  );
}
