import { createGateCatalog, type GateCatalog } from 'gatehouse-hitl-core';
import type { AppContext } from '../context.js';
import { recordAnalysisDecision } from './analysis/analysis-decisions.js';
import { type AnalysisService, createAnalysisService } from './analysis/analysis-service.js';
import { createPushAnalysis, type PushAnalysis } from './analysis/push-analysis.js';
import { type AuditService, createAuditService } from './audit/audit-service.js';
import { refreshRunStatus } from './gates/gate-run.js';
import { createGateService } from './gates/gate-service.js';
import { createTimeoutSweeper, type TimeoutSweeper } from './gates/timeout-sweeper.js';
import { createJournalService, type JournalService } from './journal/journal-service.js';
import { createMetricsService, type MetricsService } from './metrics/metrics.js';
import { createEmailActions, type EmailActions } from './notifications/email/email-actions.js';
import { createNotificationService, type NotificationService } from './notifications/notification-service.js';
import { createAdminServices } from './people/admin-service.js';
import type { AgentService } from './people/agents.js';
import type { SessionService } from './people/sessions.js';
import type { SsoService } from './people/sso.js';
import type { UserService } from './people/users.js';
import { createPolicyService, type PolicyService } from './policy/policy-service.js';
import { createRuleService, type RuleService } from './policy/rule-service.js';
import {
  createReviewHealthService,
  type ReviewHealthService,
} from './review-health/review-health-service.js';
import { recordReviewDecision } from './reviews/review-decision.js';
import { createReviewService, type ReviewService } from './reviews/review-service.js';
import { type ConfidenceService, createConfidenceService } from './runs/confidence-service.js';
import { takeUnseenInterventions } from './runs/interventions.js';
import { createRunService } from './runs/run-service.js';
import { createSearchService, type SearchService } from './search/search-service.js';
import { createStreamService, type StreamService } from './streams/stream-service.js';
import { revokeAutonomyOnAnswer } from './trust/autonomy-ramp.js';
import { revokeOnAnswer } from './trust/trust-revocation.js';
import { createTrustService, type TrustService } from './trust/trust-service.js';
import type { GateService, RunService } from './types.js';
import { createWebhookService, type WebhookService } from './webhook-service.js';
import { recordWhitelistDecision } from './whitelists/whitelist-decisions.js';
import { createWhitelistService, type WhitelistService } from './whitelists/whitelist-service.js';
import {
  createWorkspaceService,
  reviewsForWorkspace,
  type WorkspaceService,
} from './workspace/workspace-service.js';

/**
 * Every service of the server, created once per app. Each area owns its own factory;
 * keep this file to wiring only.
 */
export interface Services {
  /** The gate types this server knows: the built-in ones and any custom type registered on it. */
  gateTypes: GateCatalog;
  users: UserService;
  agents: AgentService;
  sessions: SessionService;
  /** Sign-in through an OpenID provider, when one is configured. */
  sso: SsoService;
  audit: AuditService;
  metrics: MetricsService;
  policies: PolicyService;
  rules: RuleService;
  gates: GateService;
  runs: RunService;
  reviews: ReviewService;
  confidence: ConfidenceService;
  streams: StreamService;
  timeouts: TimeoutSweeper;
  webhooks: WebhookService;
  journal: JournalService;
  search: SearchService;
  workspace: WorkspaceService;
  analysis: AnalysisService;
  /** Analyses each phase branch the run's agent pushes, in the background. */
  pushAnalysis: PushAnalysis;
  whitelists: WhitelistService;
  /** Notification rules, channel choices and delivery through email and Slack. */
  notifications: NotificationService;
  /** Decisions from emailed links. */
  emailActions: EmailActions;
  /** Trust proposals from the decision history and the rules people accepted from them. */
  trust: TrustService;
  /** What reviewers open, review health, and the rubber-stamping alert. */
  reviewHealth: ReviewHealthService;
  /** Runs once the app is ready: loads the policy, starts the timeout sweeper, the webhook worker and the audit checkpoints. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function createServices(ctx: AppContext): Promise<Services> {
  const admin = createAdminServices(ctx);
  const catalog = createGateCatalog();
  const audit = createAuditService(ctx, { catalog });
  const metrics = createMetricsService(ctx);
  const policies = createPolicyService(ctx, catalog);
  const gates = createGateService(ctx, {
    catalog,
    policies,
    interventions: (runId) => takeUnseenInterventions(ctx, runId),
  });
  const runs = createRunService(ctx, { gates });
  const confidence = createConfidenceService(ctx, { gates });
  const streams = createStreamService(ctx);
  const timeouts = createTimeoutSweeper(ctx);
  const webhooks = createWebhookService(ctx);
  const search = createSearchService(ctx);
  const reviews = createReviewService(ctx);
  const whitelists = createWhitelistService(ctx, { gates });
  const analysis = createAnalysisService(ctx, { gates, whitelists });
  const pushAnalysis = createPushAnalysis(ctx, { analysis });
  const notifications = createNotificationService(ctx, catalog);
  const reviewHealth = createReviewHealthService(ctx);
  // What each feature does when a person decides a gate, in this order, inside the decision's commit.
  gates.onRequestAnswered((outcome) => metrics.countRequest(outcome));
  gates.onGateDecided((tools, { gate }) => recordAnalysisDecision(ctx, tools, gate));
  gates.onGateDecided((tools, { gate, whitelist }) =>
    recordWhitelistDecision(tools, ctx.ids, gate, whitelist),
  );
  gates.onGateDecided((tools, { gate }) => revokeOnAnswer(ctx, tools, gate));
  gates.onGateDecided((tools, { gate }) => revokeAutonomyOnAnswer(ctx, tools, gate));
  gates.onGateDecided((tools, { gate }) => refreshRunStatus(tools, gate.runId));
  gates.onGateDecided((tools, { gate, merge }) => recordReviewDecision(tools, gate, merge));
  return {
    ...admin,
    gateTypes: catalog,
    audit,
    metrics,
    policies,
    rules: createRuleService(ctx),
    gates,
    runs,
    reviews,
    confidence,
    streams,
    timeouts,
    webhooks,
    journal: createJournalService(ctx),
    search,
    workspace: createWorkspaceService(ctx, {
      ...reviewsForWorkspace(reviews),
      afterAgentPush: pushAnalysis.afterAgentPush,
    }),
    analysis,
    pushAnalysis,
    whitelists,
    notifications,
    emailActions: createEmailActions(ctx, gates),
    trust: createTrustService(ctx, { policies }),
    reviewHealth,
    async start() {
      await policies.start();
      timeouts.start();
      webhooks.start();
      notifications.start();
      reviewHealth.alerts.start();
      audit.checkpoints.start();
      search.start();
    },
    async close() {
      await pushAnalysis.idle();
      streams.close();
      await timeouts.stop();
      await webhooks.close();
      await reviewHealth.alerts.stop();
      await notifications.close();
      await search.close();
      gates.close();
      metrics.close();
      await policies.close();
      await analysis.close();
      // Last, so it signs every event the others wrote on their way down.
      await audit.checkpoints.stop();
    },
  };
}
