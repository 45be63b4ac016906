export type { SignedDecisionFields, SignedWhitelistScope } from 'gatehouse-hitl-protocol';
export {
  decisionWhitelistScope,
  KEY_PROOF_PREFIX,
  keyProofText,
  SIGNED_DECISION_PREFIX,
  signedDecisionText,
} from 'gatehouse-hitl-protocol';
export type {
  Briefing,
  BriefingConfidence,
  BriefingConfidenceBand,
  BriefingField,
  BriefingNames,
  BriefingOption,
  BriefingSection,
  ProposedAction,
} from './briefing/briefing.js';
export { briefingConfidenceBand, buildBriefing, gateConfidence } from './briefing/briefing.js';
export type { GateFinding } from './briefing/briefing-findings.js';
export { FINDINGS_SHOWN, findingLines, findingPlace, gateFindings } from './briefing/briefing-findings.js';
export type { ChangeCounts } from './briefing/change-facts.js';
export { destructiveContextOfChange } from './briefing/change-facts.js';
export type { GateDisplayOptions } from './briefing/display.js';
export { formatDuration, formatGateDisplay, formatOptionsPrompt, optionForKey } from './briefing/display.js';
export { agentTitleBeside } from './briefing/headline.js';
export { canonicalJson, payloadText, plainCanonicalJson } from './canonical-json.js';
export type { Clock, IdGenerator } from './clock.js';
export { createFakeClock, createSequentialIds, toIso } from './clock.js';
export type {
  ApprovalDecision,
  BandAction,
  CheckApprovalInput,
  ConfidenceBand,
  ConfidenceConfig,
  ConfidenceConfigOverride,
  ConfidenceDiagnosticsInput,
  ConfidenceEvaluation,
  ConfidenceScale,
  ScoreConfidenceInput,
  ScoredToolCall,
} from './confidence/confidence.js';
export {
  abortsSubtask,
  BAND_ACTIONS,
  CONFIDENCE_BAND_FLOORS,
  CONFIDENCE_BANDS,
  checkApproval,
  confidenceBand,
  confidenceDiagnostics,
  DEFAULT_APPROVAL_THRESHOLD,
  DEFAULT_AUTO_PROCEED_DELAY_MS,
  DEFAULT_CONFIDENCE_CONFIG,
  evaluateConfidenceReport,
  loadConfidenceConfig,
  normalizeConfidence,
  resolveConfidenceConfig,
  scoreConfidence,
} from './confidence/confidence.js';
export type {
  FindingRecovery,
  RecoveredFinding,
  RecoveryAttempt,
  RecoveryObservation,
  RecoveryStep,
  TestReport,
} from './confidence/finding-recovery.js';
export {
  advanceRecovery,
  flakyEvaluation,
  isFlakyReappearance,
  isFlakyTest,
  recordTestOutcomes,
  recoveryDocument,
  resetRecoveryAttempts,
  resolveRecovery,
} from './confidence/finding-recovery.js';
export * from './destructive/public.js';
export type { ErrorCode } from './errors.js';
export { assertNever, ERROR_CODES, GatehouseError, HTTP_STATUS, isGatehouseError } from './errors.js';
export type {
  BriefingBuilder,
  GateOpener,
  GateTypeBehaviour,
  GateTypeSpec,
  OptionEquivalents,
} from './gate-types/index.js';
export {
  BUILTIN_GATE_SPECS,
  BUILTIN_GATE_TYPES,
  builtinGateSpec,
  DEFAULT_GATE_BEHAVIOUR,
  defineGateType,
  QUESTION_GATE_TYPE,
} from './gate-types/index.js';
export * from './gates/public.js';
export type { LoginBackoffPolicy } from './login-backoff.js';
export { DEFAULT_LOGIN_BACKOFF, loginBackoffMs } from './login-backoff.js';
export * from './policy/public.js';
export type { RevealedText, RevealOptions } from './reveal.js';
export {
  containsHiddenCharacters,
  gateHasHiddenCharacters,
  HIDDEN_CHARACTER_MARKER,
  HIDDEN_CHARACTERS_WARNING,
  hiddenCharacterMarker,
  revealHidden,
  revealText,
} from './reveal.js';
export type {
  NotificationChannelName,
  NotificationRoute,
  NotificationRule,
  NotificationTrigger,
  RoutedGate,
  RoutedPerson,
  RoutingInput,
} from './review/notification-routing.js';
export {
  DEFAULT_NOTIFICATION_RULE,
  DELIVERED_NOTIFICATION_CHANNELS,
  leftOutByEscalation,
  notificationRuleMatches,
  routeNotice,
} from './review/notification-routing.js';
export type { AfterApproval, ReviewDecision } from './review/review-decisions.js';
export {
  isBlindApproval,
  isContradicted,
  isFastHighRiskApproval,
  isHighRisk,
  nearestRank,
  secondsToDecide,
} from './review/review-decisions.js';
export type { Reviewer, ReviewHealthInput, ReviewTimeout } from './review/review-health.js';
export {
  computeReviewHealth,
  DEFAULT_REVIEW_HEALTH_SETTINGS,
  reviewFigures,
} from './review/review-health.js';
export { detectRubberStamping } from './review/review-stamping.js';
export type {
  FreezeContext,
  PhaseBoundary,
  PhaseReviewAnswer,
  PrBehaviour,
  ResolveAutonomyInput,
  ResumePlan,
  ShouldFreezeInput,
} from './runs/autonomy.js';
export {
  EXPERT_AUTONOMY_DEFAULTS,
  FRAMEWORK_DEFAULT_AUTONOMY,
  freezeContext,
  phaseBranchName,
  prBehaviour,
  resolveAutonomy,
  resumeAfterFreeze,
  shouldFreeze,
} from './runs/autonomy.js';
export type {
  AutonomyCandidate,
  AutonomyEvidence,
  AutonomyProposalDraft,
  AutonomySettings,
  AutonomyThresholds,
  PhaseReviewEntry,
  PhaseReviewOutcome,
  ProposeAutonomyInput,
} from './runs/autonomy-proposals.js';
export {
  autonomyRank,
  autonomyThresholdsOf,
  DEFAULT_AUTONOMY_THRESHOLDS,
  losesAutonomyTrust,
  nextAutonomyLevel,
  proposeAutonomy,
  revokesAutonomyStep,
} from './runs/autonomy-proposals.js';
export type { AgentSettings, RunSettings, RunSettingsRequest } from './runs/run-ceiling.js';
export { isAtLeastAsStrict, resolveRunSettings } from './runs/run-ceiling.js';
export type {
  LastCheckpoint,
  RunAct,
  RunHold,
  RunHoldFacts,
  RunHoldReason,
  SettledStatusFacts,
} from './runs/run-state.js';
export {
  assertNextPhase,
  assertRunMayAct,
  holdBlocking,
  nextCheckpointPhase,
  runHeldError,
  runHoldOf,
  settledRunStatus,
} from './runs/run-state.js';
export type { JsonValue, SanitizeOptions } from './sanitize.js';
export {
  displayWidth,
  graphemes,
  revealDeep,
  sanitizeDeep,
  sanitizeText,
  truncateToWidth,
  wrapToWidth,
} from './sanitize.js';
export type {
  Action,
  Agent,
  ApprovalMode,
  ApprovalVote,
  AuditEvent,
  AutonomyLevel,
  ConfidenceReport,
  ConfidenceReportInput,
  Decision,
  Gate,
  GateOption,
  GateStatus,
  GateThreshold,
  GateTypeDefinition,
  Intervention,
  InterventionKind,
  OptionOutcome,
  PhaseType,
  RiskLevel,
  Role,
  Run,
  RunStatus,
  SignatureRule,
  TerminalGateStatus,
  TimeoutAction,
} from './schemas.js';
export {
  AUTONOMY_LEVELS,
  actionSchema,
  approvalModeSchema,
  autonomyLevelSchema,
  confidenceReportInputSchema,
  decisionSchema,
  GATE_STATUSES,
  gateOptionSchema,
  gateStatusSchema,
  gateThresholdSchema,
  gateTypeDefinitionSchema,
  gateTypeIdSchema,
  hasRole,
  interventionKindSchema,
  optionIdSchema,
  phaseTypeSchema,
  RISK_LEVELS,
  ROLES,
  riskLevelSchema,
  roleRank,
  roleSchema,
  runStatusSchema,
  timeoutActionSchema,
} from './schemas.js';
export type {
  LearnedScope,
  ProposeTrustInput,
  TrustEvidence,
  TrustHistoryEntry,
  TrustOutcome,
  TrustProposalDraft,
  TrustReplay,
  TrustSettings,
  TrustSignal,
  TrustThresholds,
} from './trust/trust-proposals.js';
export {
  DEFAULT_TRUST_THRESHOLDS,
  isNeverLearned,
  learnedRuleCovers,
  learnedRuleState,
  learnedScopeKey,
  narrowingRefusal,
  proposeTrust,
  replayLearnedScope,
  revokesLearnedRule,
  trustThresholdsOf,
} from './trust/trust-proposals.js';
export { broadGlobRefusal } from './trust/whitelist-glob.js';
export type {
  Suppressed,
  SuppressibleFacts,
  WhitelistContext,
  WhitelistedFinding,
  WhitelistScope,
} from './trust/whitelist-match.js';
export {
  factsWithout,
  globToRegExp,
  isWhitelistActive,
  partitionFindings,
  WHITELIST_DAYS,
  WHITELIST_MS,
  whitelistCovers,
} from './trust/whitelist-match.js';
