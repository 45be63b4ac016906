import { resolve } from 'node:path';
import { z } from 'zod';
import type { McpOAuthConfig } from './auth/mcp-oauth.js';
import { mcpOAuthConfigFromEnv, type SsoConfig, ssoConfigFromEnv } from './auth/sso-config.js';
import type { TelemetryConfig } from './telemetry/telemetry.js';

const booleanText = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  GATEHOUSE_HOST: z.string().default('127.0.0.1'),
  GATEHOUSE_PORT: z.coerce.number().int().min(0).max(65535).default(7300),
  GATEHOUSE_DATA_DIR: z.string().default('.gatehouse'),
  GATEHOUSE_DATABASE_URL: z.string().optional(),
  GATEHOUSE_DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/)
    .optional(),
  GATEHOUSE_PUBLIC_URL: z.string().url().optional(),
  GATEHOUSE_ALLOWED_ORIGINS: z.string().optional(),
  GATEHOUSE_LOG_FILE: z.string().min(1).optional(),
  GATEHOUSE_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  GATEHOUSE_JSON_DEPTH_LIMIT: z.coerce.number().int().min(4).max(512).default(64),
  GATEHOUSE_GATE_ARGS_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(256)
    .max(16 * 1024 * 1024)
    .default(64 * 1024),
  GATEHOUSE_AGENT_RATE_PER_SECOND: z.coerce.number().min(0).max(100_000).default(50),
  GATEHOUSE_AGENT_RATE_BURST: z.coerce.number().int().min(1).max(1_000_000).default(100),
  GATEHOUSE_TOKEN_RATE_PER_SECOND: z.coerce.number().min(0).max(100_000).default(50),
  GATEHOUSE_TOKEN_RATE_BURST: z.coerce.number().int().min(1).max(1_000_000).default(100),
  GATEHOUSE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GATEHOUSE_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  GATEHOUSE_LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  GATEHOUSE_EVENTS_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  GATEHOUSE_STREAM_RECHECK_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  GATEHOUSE_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  // Test-only: shifts this node's clock so multi-node tests can run one node fast or slow.
  GATEHOUSE_TEST_CLOCK_SKEW_MS: z.coerce.number().int().min(-86_400_000).max(86_400_000).default(0),
  GATEHOUSE_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  GATEHOUSE_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  GATEHOUSE_WEBHOOK_LEASE_MS: z.coerce.number().int().min(200).max(3_600_000).optional(),
  GATEHOUSE_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  GATEHOUSE_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  GATEHOUSE_WEBHOOK_BACKOFF_MAX_MS: z.coerce.number().int().min(1).max(86_400_000).default(3_600_000),
  GATEHOUSE_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  GATEHOUSE_DRY_RUN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  GATEHOUSE_DRY_RUN_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(128),
  GATEHOUSE_ANALYSIS_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  GATEHOUSE_ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  GATEHOUSE_ANALYSIS_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
  GATEHOUSE_AUDIT_KEY_FILE: z.string().min(1).optional(),
  GATEHOUSE_AUDIT_HEADS_FILE: z.string().min(1).optional(),
  GATEHOUSE_AUDIT_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  GATEHOUSE_REPOS_DIR: z.string().min(1).optional(),
  GATEHOUSE_MCP_GATEWAY_CONFIG: z.string().min(1).optional(),
  GATEHOUSE_GIT_PUSH_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(4 * 1024 * 1024 * 1024)
    .default(100 * 1024 * 1024),
  GATEHOUSE_EMBEDDINGS_URL: z.string().url().optional(),
  GATEHOUSE_EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  GATEHOUSE_EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  GATEHOUSE_SMTP_URL: z.string().url().optional(),
  GATEHOUSE_SMTP_FROM: z.string().min(3).max(320).optional(),
  GATEHOUSE_EMAIL_LINK_TTL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(86_400_000)
    .default(30 * 60_000),
  GATEHOUSE_EMAIL_SESSION_ROLE: z.enum(['developer', 'tech_lead', 'admin']).default('tech_lead'),
  GATEHOUSE_REVIEW_FAST_APPROVAL_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  GATEHOUSE_REVIEW_MIN_DECISIONS: z.coerce.number().int().min(1).max(100_000).default(10),
  GATEHOUSE_REVIEW_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).max(604_800_000).default(3_600_000),
  GATEHOUSE_REVIEW_DIGEST_INTERVAL_MS: z.coerce.number().int().min(0).max(7_776_000_000).default(604_800_000),
  GATEHOUSE_NOTIFY_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  GATEHOUSE_NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  GATEHOUSE_NOTIFY_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(15_000),
  GATEHOUSE_SLACK_BOT_TOKEN: z.string().min(1).optional(),
  GATEHOUSE_SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  GATEHOUSE_SLACK_API_URL: z.string().url().default('https://slack.com/api/'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) URL such as http://127.0.0.1:4318')
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('gatehouse'),
  OTEL_SDK_DISABLED: booleanText.default(false),
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  GATEHOUSE_SSO_ISSUER: z.string().url().optional(),
  GATEHOUSE_SSO_CLIENT_ID: z.string().min(1).max(500).optional(),
  GATEHOUSE_SSO_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  GATEHOUSE_SSO_SCOPES: z.string().min(1).max(1000).default('openid profile email'),
  GATEHOUSE_SSO_GROUPS_CLAIM: z.string().min(1).max(200).default('groups'),
  GATEHOUSE_SSO_ROLES: z.string().min(1).max(10_000).optional(),
  GATEHOUSE_SSO_NAME: z.string().trim().min(1).max(100).default('single sign-on'),
  GATEHOUSE_MCP_OAUTH_AGENT: z.string().min(1).max(200).optional(),
  CONFIDENCE_THRESHOLD: z.string().optional(),
  CONFIDENCE_ENABLED: booleanText.optional(),
  CONFIDENCE_AUTO_ESCALATE: booleanText.optional(),
});

/** Everything the server is configured with; the only place that reads process.env. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  /** Postgres schema for every table (created when missing); null = the search path's. */
  databaseSchema: string | null;
  publicUrl: string | null;
  /**
   * Origins besides this server's own that may send cookie-authenticated writes and reach /mcp
   * from a browser (GATEHOUSE_ALLOWED_ORIGINS, comma-separated). The public URL's origin is always in.
   */
  allowedOrigins: string[];
  logLevel: string;
  /** Append logs to this file instead of stdout (GATEHOUSE_LOG_FILE). @default null */
  logFile: string | null;
  sweepIntervalMs: number;
  /**
   * Check every stream event against its schema in the protocol before it is stored, failing the
   * change that emits a malformed one: on in the test kits, off in production. @default false
   */
  checkStreamEvents: boolean;
  loginAttemptsPerMinute: number;
  /** Raw CONFIDENCE_* variables, parsed by core's loadConfidenceConfig. */
  confidenceEnv: Record<string, string | undefined>;
  /** Largest accepted request body in bytes (GATEHOUSE_BODY_LIMIT_BYTES). @default 1048576 */
  bodyLimit: number;
  /** Deepest nesting of arrays and objects a JSON body may have (GATEHOUSE_JSON_DEPTH_LIMIT). @default 64 */
  jsonDepthLimit: number;
  /** Largest `args` + `context` of one gate request, canonical JSON bytes (GATEHOUSE_GATE_ARGS_LIMIT_BYTES). @default 65536 */
  gateArgsLimitBytes: number;
  /** Token buckets for writes, per agent and per credential, on each node; perSecond 0 turns one off. */
  rateLimits: RateLimits;
  /** How long a gate request of a paused run is held for a resume before RUN_NOT_ACTIVE. */
  pausedRunHoldMs: number;
  /** Postgres only: how often a node reads new stream events even without a NOTIFY (the backstop). */
  eventsPollIntervalMs: number;
  /** How often open event streams re-check their credential; a revoked one is closed. */
  streamRecheckMs: number;
  /** How long a shutdown waits for in-flight requests before it cuts them. */
  shutdownTimeoutMs: number;
  /** How often a node looks for webhook work without being woken (GATEHOUSE_WEBHOOK_POLL_MS). @default 1000 */
  webhookPollIntervalMs: number;
  /** How long one delivery attempt may take (GATEHOUSE_WEBHOOK_TIMEOUT_MS). @default 10000 */
  webhookTimeoutMs: number;
  /**
   * How long a node holds a claimed delivery (GATEHOUSE_WEBHOOK_LEASE_MS); after that another node
   * redelivers. Longer than the timeout. @default the timeout + 30 s
   */
  webhookLeaseMs: number;
  /** Attempts before a delivery goes to the dead letter (GATEHOUSE_WEBHOOK_MAX_ATTEMPTS). @default 8 */
  webhookMaxAttempts: number;
  /** Retry n waits about base × 2^(n-1), with jitter (GATEHOUSE_WEBHOOK_BACKOFF_MS). @default 30000 */
  webhookBackoffBaseMs: number;
  /** The longest wait between attempts (GATEHOUSE_WEBHOOK_BACKOFF_MAX_MS). @default 3600000 */
  webhookBackoffMaxMs: number;
  /** Attempts in flight at once on one node (GATEHOUSE_WEBHOOK_CONCURRENCY). @default 8 */
  webhookConcurrency: number;
  /**
   * The Ed25519 private key (PKCS#8 PEM) that signs audit checkpoints (GATEHOUSE_AUDIT_KEY_FILE);
   * created with mode 0600 when missing. Every node of one database must use the same key.
   * @default null: `audit-signing-key.pem` in the data directory
   */
  auditKeyFile: string | null;
  /** Where each signed checkpoint is appended as one JSON line (GATEHOUSE_AUDIT_HEADS_FILE). @default null: `audit-heads.jsonl` in the data directory */
  auditHeadsFile: string | null;
  /** How often the chain's head is signed when new events exist (GATEHOUSE_AUDIT_CHECKPOINT_INTERVAL_MS). @default 60000 */
  auditCheckpointIntervalMs: number;
  /**
   * Tests only (GATEHOUSE_TEST_CLOCK_SKEW_MS): added to this node's system clock. On Postgres the
   * database's clock still decides deadlines, which is what the multi-node tests check. @default 0
   */
  testClockSkewMs: number;
  /** How long a policy dry run may evaluate before it is stopped (GATEHOUSE_DRY_RUN_TIMEOUT_MS). @default 2000 */
  dryRunTimeoutMs: number;
  /**
   * Where each run's workspace repository lives (GATEHOUSE_REPOS_DIR); with several nodes, a directory
   * every node shares. @default null: `repos` in the data directory
   */
  reposDir: string | null;
  /**
   * The MCP gateway at /mcp/gateway: the `mcpServers` file it fronts (GATEHOUSE_MCP_GATEWAY_CONFIG)
   * and the environment its `${VAR}` placeholders are filled from. @default null: no gateway
   */
  mcpGateway: { configFile: string; env: Record<string, string | undefined> } | null;
  /** Largest pack one push may send (GATEHOUSE_GIT_PUSH_LIMIT_BYTES). @default 104857600 */
  gitPushLimitBytes: number;
  /**
   * An OpenAI-compatible embeddings endpoint for semantic workspace search (GATEHOUSE_EMBEDDINGS_URL,
   * the base URL whose `/v1/embeddings` is called; _MODEL, _API_KEY). @default null: full-text search only
   */
  embeddings: EmbeddingsConfig | null;
  /** Heap of the worker a dry run evaluates in (GATEHOUSE_DRY_RUN_MEMORY_MB). @default 128 */
  dryRunMemoryMb: number;
  /** Worker threads change analysis runs in, one analysis each at a time (GATEHOUSE_ANALYSIS_WORKERS). @default 1 */
  analysisWorkers: number;
  /** How long one analysis may run before its worker is stopped (GATEHOUSE_ANALYSIS_TIMEOUT_MS). @default 5000 */
  analysisTimeoutMs: number;
  /** Analyses waiting for a worker before new ones are refused with 429 (GATEHOUSE_ANALYSIS_QUEUE). @default 16 */
  analysisQueue: number;
  /** Single sign-on through an OpenID provider (GATEHOUSE_SSO_*; docs/sso.md). @default null: passwords and login links only */
  sso: SsoConfig | null;
  /** OAuth for MCP over HTTP with the single sign-on provider's tokens (GATEHOUSE_MCP_OAUTH_AGENT). @default null: agent tokens only */
  mcpOAuth: McpOAuthConfig | null;
  /** The Slack app; see SlackConfig. */
  slack: SlackConfig;
  /** Notification email and its action links; see NotificationConfig. */
  notifications: NotificationConfig;
  /**
   * OpenTelemetry traces and metrics over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME;
   * OTEL_SDK_DISABLED=true turns it off; docs/tracing.md). @default null: no tracing, the SDK never loaded
   */
  telemetry: TelemetryConfig | null;
  /** Review health thresholds, the rubber-stamping check and the weekly digest; see ReviewHealthConfig. @default core's defaults, checked hourly, digest weekly */
  reviewHealth?: ReviewHealthConfig;
}

/** Review health (docs/review-health.md). */
export interface ReviewHealthConfig {
  /** Thresholds on top of core's defaults (GATEHOUSE_REVIEW_FAST_APPROVAL_SECONDS, GATEHOUSE_REVIEW_MIN_DECISIONS). */
  settings: { fastApprovalFloorSeconds: number; minDecisions: number };
  /** How often admins are alerted of new rubber-stamping (GATEHOUSE_REVIEW_CHECK_INTERVAL_MS); 0 turns it off. @default 3600000 */
  checkIntervalMs: number;
  /** How often the review digest goes to admins (GATEHOUSE_REVIEW_DIGEST_INTERVAL_MS); 0 turns it off. @default 604800000 */
  digestIntervalMs: number;
}

/** How people are told of gates (docs/notifications.md). */
export interface NotificationConfig {
  /** SMTP server for email, e.g. smtps://user:pass@mail.example.com (GATEHOUSE_SMTP_URL). @default null: no email */
  smtpUrl: string | null;
  /** The From address (GATEHOUSE_SMTP_FROM). @default `Gatehouse <gatehouse@localhost>` */
  smtpFrom: string;
  /** How long an emailed decision link stays valid (GATEHOUSE_EMAIL_LINK_TTL_MS). @default 1800000 */
  emailLinkTtlMs: number;
  /** Gates whose minRole is this or above need a signed-in session to decide from an email link (GATEHOUSE_EMAIL_SESSION_ROLE). @default tech_lead */
  emailSessionRole: 'developer' | 'tech_lead' | 'admin';
  /** How often a node looks for notification work without being woken (GATEHOUSE_NOTIFY_POLL_MS). @default 1000 */
  pollIntervalMs: number;
  /** Attempts before a notification is marked failed (GATEHOUSE_NOTIFY_MAX_ATTEMPTS). @default 6 */
  maxAttempts: number;
  /** Retry n waits about base × 2^(n-1) (GATEHOUSE_NOTIFY_BACKOFF_MS). @default 15000 */
  backoffBaseMs: number;
}

/** The Slack app (docs/slack.md): messages go out with the bot token; clicks come back signed. */
export interface SlackConfig {
  /** Bot token, xoxb-… (GATEHOUSE_SLACK_BOT_TOKEN). @default null: no Slack messages */
  botToken: string | null;
  /** Signs every request Slack sends (GATEHOUSE_SLACK_SIGNING_SECRET). @default null: Slack interactions refused */
  signingSecret: string | null;
  /** Slack's Web API base (GATEHOUSE_SLACK_API_URL). @default https://slack.com/api/ */
  apiUrl: string;
}

/** The embeddings endpoint semantic search uses. */
export interface EmbeddingsConfig {
  url: string;
  model: string;
  apiKey: string | null;
}

/** A token bucket: `burst` requests at once, refilled at `perSecond`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export interface RateLimits {
  /** Every write of one agent, whichever of its tokens it uses (GATEHOUSE_AGENT_RATE_*). @default 50/s, burst 100 */
  agent: RateLimit;
  /** Every write made with one token or session (GATEHOUSE_TOKEN_RATE_*). @default 50/s, burst 100 */
  token: RateLimit;
}

function originList(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const url = URL.canParse(item) ? new URL(item) : null;
      if (!url || url.origin === 'null') {
        throw new Error(
          `invalid environment: GATEHOUSE_ALLOWED_ORIGINS: ${item} is not an origin like https://host:port`,
        );
      }
      return url.origin;
    });
}

/** A claim must outlive the attempt it covers, or a slow but live attempt would be sent twice. */
function webhookLease(timeoutMs: number, leaseMs: number | undefined): number {
  if (leaseMs === undefined) return timeoutMs + 30_000;
  if (leaseMs <= timeoutMs) {
    throw new Error(
      `invalid environment: GATEHOUSE_WEBHOOK_LEASE_MS (${leaseMs}) must be longer than GATEHOUSE_WEBHOOK_TIMEOUT_MS (${timeoutMs})`,
    );
  }
  return leaseMs;
}

/** Reads the environment once, with command-line overrides on top. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid environment: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  const webhookLeaseMs = webhookLease(e.GATEHOUSE_WEBHOOK_TIMEOUT_MS, e.GATEHOUSE_WEBHOOK_LEASE_MS);
  return {
    host: e.GATEHOUSE_HOST,
    port: e.GATEHOUSE_PORT,
    dataDir: resolve(e.GATEHOUSE_DATA_DIR),
    databaseUrl: e.GATEHOUSE_DATABASE_URL ?? null,
    databaseSchema: e.GATEHOUSE_DATABASE_SCHEMA ?? null,
    publicUrl: e.GATEHOUSE_PUBLIC_URL ?? null,
    allowedOrigins: originList(e.GATEHOUSE_ALLOWED_ORIGINS),
    logLevel: e.GATEHOUSE_LOG_LEVEL,
    logFile: e.GATEHOUSE_LOG_FILE ?? null,
    sweepIntervalMs: e.GATEHOUSE_SWEEP_INTERVAL_MS,
    checkStreamEvents: false,
    loginAttemptsPerMinute: e.GATEHOUSE_LOGIN_ATTEMPTS_PER_MINUTE,
    confidenceEnv: {
      CONFIDENCE_THRESHOLD: env.CONFIDENCE_THRESHOLD,
      CONFIDENCE_ENABLED: env.CONFIDENCE_ENABLED,
      CONFIDENCE_AUTO_ESCALATE: env.CONFIDENCE_AUTO_ESCALATE,
    },
    bodyLimit: e.GATEHOUSE_BODY_LIMIT_BYTES,
    jsonDepthLimit: e.GATEHOUSE_JSON_DEPTH_LIMIT,
    gateArgsLimitBytes: e.GATEHOUSE_GATE_ARGS_LIMIT_BYTES,
    rateLimits: {
      agent: { perSecond: e.GATEHOUSE_AGENT_RATE_PER_SECOND, burst: e.GATEHOUSE_AGENT_RATE_BURST },
      token: { perSecond: e.GATEHOUSE_TOKEN_RATE_PER_SECOND, burst: e.GATEHOUSE_TOKEN_RATE_BURST },
    },
    pausedRunHoldMs: 25_000,
    eventsPollIntervalMs: e.GATEHOUSE_EVENTS_POLL_MS,
    streamRecheckMs: e.GATEHOUSE_STREAM_RECHECK_MS,
    shutdownTimeoutMs: e.GATEHOUSE_SHUTDOWN_TIMEOUT_MS,
    testClockSkewMs: e.GATEHOUSE_TEST_CLOCK_SKEW_MS,
    dryRunTimeoutMs: e.GATEHOUSE_DRY_RUN_TIMEOUT_MS,
    dryRunMemoryMb: e.GATEHOUSE_DRY_RUN_MEMORY_MB,
    analysisWorkers: e.GATEHOUSE_ANALYSIS_WORKERS,
    analysisTimeoutMs: e.GATEHOUSE_ANALYSIS_TIMEOUT_MS,
    analysisQueue: e.GATEHOUSE_ANALYSIS_QUEUE,
    webhookPollIntervalMs: e.GATEHOUSE_WEBHOOK_POLL_MS,
    webhookTimeoutMs: e.GATEHOUSE_WEBHOOK_TIMEOUT_MS,
    webhookLeaseMs,
    webhookMaxAttempts: e.GATEHOUSE_WEBHOOK_MAX_ATTEMPTS,
    webhookBackoffBaseMs: e.GATEHOUSE_WEBHOOK_BACKOFF_MS,
    webhookBackoffMaxMs: e.GATEHOUSE_WEBHOOK_BACKOFF_MAX_MS,
    webhookConcurrency: e.GATEHOUSE_WEBHOOK_CONCURRENCY,
    auditKeyFile: e.GATEHOUSE_AUDIT_KEY_FILE === undefined ? null : resolve(e.GATEHOUSE_AUDIT_KEY_FILE),
    auditHeadsFile: e.GATEHOUSE_AUDIT_HEADS_FILE === undefined ? null : resolve(e.GATEHOUSE_AUDIT_HEADS_FILE),
    auditCheckpointIntervalMs: e.GATEHOUSE_AUDIT_CHECKPOINT_INTERVAL_MS,
    reposDir: e.GATEHOUSE_REPOS_DIR === undefined ? null : resolve(e.GATEHOUSE_REPOS_DIR),
    mcpGateway:
      e.GATEHOUSE_MCP_GATEWAY_CONFIG === undefined
        ? null
        : { configFile: resolve(e.GATEHOUSE_MCP_GATEWAY_CONFIG), env },
    gitPushLimitBytes: e.GATEHOUSE_GIT_PUSH_LIMIT_BYTES,
    embeddings:
      e.GATEHOUSE_EMBEDDINGS_URL === undefined
        ? null
        : {
            url: e.GATEHOUSE_EMBEDDINGS_URL,
            model: e.GATEHOUSE_EMBEDDINGS_MODEL ?? 'text-embedding-3-small',
            apiKey: e.GATEHOUSE_EMBEDDINGS_API_KEY ?? null,
          },
    telemetry:
      e.OTEL_EXPORTER_OTLP_ENDPOINT === undefined || e.OTEL_SDK_DISABLED
        ? null
        : {
            endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
            serviceName: e.OTEL_SERVICE_NAME,
            metricIntervalMs: e.OTEL_METRIC_EXPORT_INTERVAL,
          },
    notifications: {
      smtpUrl: e.GATEHOUSE_SMTP_URL ?? null,
      smtpFrom: e.GATEHOUSE_SMTP_FROM ?? 'Gatehouse <gatehouse@localhost>',
      emailLinkTtlMs: e.GATEHOUSE_EMAIL_LINK_TTL_MS,
      emailSessionRole: e.GATEHOUSE_EMAIL_SESSION_ROLE,
      pollIntervalMs: e.GATEHOUSE_NOTIFY_POLL_MS,
      maxAttempts: e.GATEHOUSE_NOTIFY_MAX_ATTEMPTS,
      backoffBaseMs: e.GATEHOUSE_NOTIFY_BACKOFF_MS,
    },
    reviewHealth: {
      settings: {
        fastApprovalFloorSeconds: e.GATEHOUSE_REVIEW_FAST_APPROVAL_SECONDS,
        minDecisions: e.GATEHOUSE_REVIEW_MIN_DECISIONS,
      },
      checkIntervalMs: e.GATEHOUSE_REVIEW_CHECK_INTERVAL_MS,
      digestIntervalMs: e.GATEHOUSE_REVIEW_DIGEST_INTERVAL_MS,
    },
    sso: ssoConfigFromEnv(e),
    mcpOAuth: mcpOAuthConfigFromEnv(e),
    slack: {
      botToken: e.GATEHOUSE_SLACK_BOT_TOKEN ?? null,
      signingSecret: e.GATEHOUSE_SLACK_SIGNING_SECRET ?? null,
      apiUrl: e.GATEHOUSE_SLACK_API_URL.endsWith('/')
        ? e.GATEHOUSE_SLACK_API_URL
        : `${e.GATEHOUSE_SLACK_API_URL}/`,
    },
    ...overrides,
  };
}
