/** The request and response schemas of every route, one module per subject. */

export type {
  AgentAutonomyBody,
  AgentListResponse,
  AgentResponse,
  AgentTokenResponse,
  CreateAgentBody,
  CreateAgentResponse,
  RevokeTokensResponse,
} from './agents.js';
export {
  agentAutonomyBodySchema,
  agentListResponseSchema,
  agentParamsSchema,
  agentResponseSchema,
  agentRoutes,
  agentTokenResponseSchema,
  createAgentBodySchema,
  createAgentResponseSchema,
  revokeTokensResponseSchema,
} from './agents.js';
export * from './analysis.js';
export type {
  AuditEventDocument,
  AuditKeyResponse,
  AuditPage,
  AuditQuery,
  AuditVerifyResponse,
} from './audit.js';
export {
  auditEventDocumentSchema,
  auditKeyResponseSchema,
  auditPageSchema,
  auditQuerySchema,
  auditRoutes,
  auditVerifyResponseSchema,
} from './audit.js';
export type {
  KeyChallengeResponse,
  LoginBody,
  LoginLinkBody,
  LogoutResponse,
  MeResponse,
  PasswordBody,
  RegisterKeyBody,
  RegisterKeyResponse,
  RenameKeyBody,
  SessionResponse,
  SigningKeyListResponse,
} from './auth.js';
export {
  authRoutes,
  keyChallengeResponseSchema,
  loginBodySchema,
  loginLinkBodySchema,
  logoutResponseSchema,
  meResponseSchema,
  okResponseSchema,
  passwordBodySchema,
  registerKeyBodySchema,
  registerKeyResponseSchema,
  renameKeyBodySchema,
  sessionResponseSchema,
  signingKeyListResponseSchema,
  signingKeyParamsSchema,
} from './auth.js';
export type {
  ClaudeCodeHookQuery,
  ClaudeCodePermissionRequestResponse,
  ClaudeCodePreToolUseBody,
  ClaudeCodePreToolUseResponse,
} from './claude-code.js';
export {
  claudeCodeHookHeadersSchema,
  claudeCodeHookQuerySchema,
  claudeCodePermissionRequestBodySchema,
  claudeCodePermissionRequestResponseSchema,
  claudeCodePreToolUseBodySchema,
  claudeCodePreToolUseResponseSchema,
  claudeCodeRoutes,
} from './claude-code.js';
export type {
  ConfidenceReportBody,
  ConfidenceReportResponse,
} from './confidence.js';
export {
  confidenceReportBodySchema,
  confidenceReportResponseSchema,
  confidenceRoutes,
} from './confidence.js';
export type {
  AssignBody,
  ConsumeBody,
  ConsumeResponse,
  DecideBatchBody,
  DecideBatchItem,
  DecideBatchResponse,
  DecideBody,
  DecideResponse,
  ExtendBody,
  GateResponse,
  SteerFailedBody,
  SteerFailedResponse,
  WithdrawBody,
} from './gate-actions.js';
export {
  assignBodySchema,
  consumeBodySchema,
  consumeResponseSchema,
  decideBatchBodySchema,
  decideBatchResponseSchema,
  decideBodySchema,
  decideResponseSchema,
  extendBodySchema,
  gateActionRoutes,
  gateResponseSchema,
  MAX_NEW_LIMIT,
  steerFailedBodySchema,
  steerFailedResponseSchema,
  withdrawBodySchema,
} from './gate-actions.js';
export type {
  DecisionDocument,
  GateDocument,
  GateOptionDocument,
  InterventionNotice,
} from './gate-document.js';
export {
  decisionDocumentSchema,
  gateDocumentSchema,
  interventionNoticeSchema,
} from './gate-document.js';
export type {
  GateListItem,
  GateListQuery,
  GateListResponse,
  GateRequestBody,
  GateRequestResponse,
  GateViewResponse,
  GateWaitResponse,
} from './gates.js';
export {
  gateListItemSchema,
  gateListQuerySchema,
  gateListResponseSchema,
  gateParamsSchema,
  gateRequestBodySchema,
  gateRequestHeadersSchema,
  gateRequestResponseSchema,
  gateRoutes,
  gateViewResponseSchema,
  gateWaitQuerySchema,
  gateWaitResponseSchema,
  MAX_TIMEOUT_SECONDS,
} from './gates.js';
export type { ReadinessResponse } from './health.js';
export {
  healthRoutes,
  livenessResponseSchema,
  readinessResponseSchema,
} from './health.js';
export { HOST_SECRET_HEADER, hostRoutes } from './host.js';
export {
  agentIdSchema,
  gateIdSchema,
  idCursorSchema,
  nameSchema,
  nextCursorSchema,
  opaqueCursorSchema,
  pageLimitSchema,
  ruleIdSchema,
  runIdSchema,
  userIdSchema,
} from './ids.js';
export * from './journal.js';
export type { ProtectedResourceMetadata } from './mcp-oauth.js';
export { mcpOAuthRoutes, protectedResourceMetadataSchema } from './mcp-oauth.js';
export type {
  AnalysisMetrics,
  MetricsBucket,
  MetricsFigures,
  MetricsSummary,
} from './metrics.js';
export {
  analysisMetricsSchema,
  metricsFiguresSchema,
  metricsRoutes,
  metricsSummarySchema,
} from './metrics.js';
export * from './notifications.js';
export type {
  AgentDocument,
  SigningKeyDocument,
  UserDocument,
} from './people.js';
export {
  agentDocumentSchema,
  signingKeyDocumentSchema,
  userDocumentSchema,
} from './people.js';
export type {
  DryRunBody,
  DryRunRequest,
  DryRunResponse,
  PolicyFormat,
  PolicyVersionListResponse,
  PolicyVersionResponse,
  PolicyVersionSummary,
  PolicyView,
  ReplacePolicyBody,
  ReplacePolicyResponse,
} from './policy.js';
export {
  dryRunBodySchema,
  dryRunRequestSchema,
  dryRunResponseSchema,
  policyFormatSchema,
  policyRoutes,
  policyVersionListResponseSchema,
  policyVersionParamsSchema,
  policyVersionResponseSchema,
  policyVersionSummarySchema,
  policyViewSchema,
  replacePolicyBodySchema,
  replacePolicyResponseSchema,
} from './policy.js';
export type {
  GatePartViewed,
  GateViewBody,
  GateViewPart,
  GroupHealth,
  ReviewerHealth,
  ReviewFigures,
  ReviewHealth,
  ReviewHealthQuery,
  ReviewHealthSettings,
  RubberStampFlag,
  RubberStampSignal,
} from './review-health.js';
export {
  GATE_VIEW_PARTS,
  gatePartViewedSchema,
  gateViewBodySchema,
  gateViewPartSchema,
  REVIEW_HEALTH_WINDOW_DAYS,
  reviewHealthQuerySchema,
  reviewHealthRoutes,
  reviewHealthSchema,
  reviewHealthSettingsSchema,
} from './review-health.js';
export * from './reviews.js';
export type {
  RememberedRule,
  RuleListResponse,
  RuleResponse,
  RuleScope,
  StandingScopeDocument,
  StandingScopes,
} from './rules.js';
export {
  rememberedRuleSchema,
  ruleListQuerySchema,
  ruleListResponseSchema,
  ruleParamsSchema,
  ruleResponseSchema,
  ruleRoutes,
  ruleScopeSchema,
  standingScopeSchema,
  standingScopesSchema,
} from './rules.js';
export type {
  InterventionDocument,
  ResumeDocument,
  RunDocument,
} from './run-document.js';
export {
  interventionDocumentSchema,
  resumeDocumentSchema,
  runDocumentSchema,
} from './run-document.js';
export type {
  CheckpointBody,
  CheckpointResponse,
  CompleteRunResponse,
  CreateRunBody,
  InterventionBody,
  InterventionListResponse,
  InterventionResponse,
  RunDetailResponse,
  RunListQuery,
  RunListResponse,
  RunResponse,
} from './runs.js';
export {
  checkpointBodySchema,
  checkpointResponseSchema,
  completeRunBodySchema,
  completeRunResponseSchema,
  createRunBodySchema,
  interventionBodySchema,
  interventionListQuerySchema,
  interventionListResponseSchema,
  interventionResponseSchema,
  runDetailResponseSchema,
  runListQuerySchema,
  runListResponseSchema,
  runParamsSchema,
  runResponseSchema,
  runRoutes,
} from './runs.js';
export * from './search.js';
export type {
  PutSlackUserBody,
  SlackInteractionResponse,
  SlackUserLinkDocument,
  SlackUserResponse,
} from './slack.js';
export {
  putSlackUserBodySchema,
  slackInteractionBodySchema,
  slackInteractionResponseSchema,
  slackRoutes,
  slackUserIdSchema,
  slackUserLinkSchema,
  slackUserResponseSchema,
  slackUserRoutes,
} from './slack.js';
export type { SsoSettingsResponse } from './sso.js';
export {
  ssoCallbackQuerySchema,
  ssoRoutes,
  ssoSettingsResponseSchema,
  ssoStartQuerySchema,
} from './sso.js';
export {
  streamHeadersSchema,
  streamQuerySchema,
  streamResponseSchema,
  streamRoutes,
  streamSeqSchema,
} from './streams.js';
export type {
  LearnedRuleDocument,
  LearnedRuleListResponse,
  TrustAcceptBody,
  TrustProposalDocument,
  TrustProposalListResponse,
} from './trust.js';
export {
  learnedRuleListQuerySchema,
  learnedRuleListResponseSchema,
  learnedRuleParamsSchema,
  learnedRuleResponseSchema,
  learnedRuleRevokeBodySchema,
  learnedRuleSchema,
  trustAcceptBodySchema,
  trustAcceptResponseSchema,
  trustDismissBodySchema,
  trustEvidenceSchema,
  trustProposalIdSchema,
  trustProposalListQuerySchema,
  trustProposalListResponseSchema,
  trustProposalParamsSchema,
  trustProposalResponseSchema,
  trustProposalSchema,
  trustProposalStatusSchema,
  trustReplaySchema,
  trustRoutes,
} from './trust.js';
export type {
  CreateUserBody,
  HostLoginLinkBody,
  HostLoginLinkResponse,
  LoginLinkResponse,
  UpdateUserBody,
  UserListResponse,
  UserResponse,
} from './users.js';
export {
  createUserBodySchema,
  hostLoginLinkBodySchema,
  hostLoginLinkResponseSchema,
  loginLinkResponseSchema,
  updateUserBodySchema,
  userListResponseSchema,
  userParamsSchema,
  userResponseSchema,
  userRoutes,
} from './users.js';
export type {
  AttemptDocument,
  CreateWebhookBody,
  CreateWebhookResponse,
  DeliveriesQuery,
  DeliveryDetailResponse,
  DeliveryDocument,
  DeliveryPage,
  DeliveryStatus,
  RedeliverResponse,
  UpdateWebhookBody,
  UpdateWebhookResponse,
  WebhookDocument,
  WebhookEventType,
  WebhookListResponse,
  WebhookResponse,
} from './webhooks.js';
export {
  attemptDocumentSchema,
  createWebhookBodySchema,
  createWebhookResponseSchema,
  deliveriesQuerySchema,
  deliveryDetailResponseSchema,
  deliveryDocumentSchema,
  deliveryIdSchema,
  deliveryPageSchema,
  deliveryParamsSchema,
  deliveryStatusSchema,
  redeliverResponseSchema,
  updateWebhookBodySchema,
  updateWebhookResponseSchema,
  WEBHOOK_EVENT_TYPES,
  webhookDocumentSchema,
  webhookEventTypeSchema,
  webhookIdSchema,
  webhookListResponseSchema,
  webhookParamsSchema,
  webhookResponseSchema,
  webhookRoutes,
} from './webhooks.js';
export * from './whitelists.js';
export * from './workspace.js';
