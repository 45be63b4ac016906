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
export { canonicalJson, payloadText } from './canonical-json.js';
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
// Module exports are appended below, one block per module.
export type { ActionReading, FileEffect } from './destructive/command-reader.js';
export { readAction } from './destructive/command-reader.js';
export type { ScopeSuggestion, StandingScope } from './destructive/command-scope.js';
export {
  describeStandingScope,
  globMatches,
  standingScopeCovers,
  standingScopeRefusal,
  standingScopeSchema,
  suggestStandingScopes,
} from './destructive/command-scope.js';
export type { AlwaysGatedCategory } from './destructive/destructive.js';
export {
  ALWAYS_GATED_CATEGORIES,
  ALWAYS_GATED_LABELS,
  actionPaths,
  classifyAlwaysGated,
  DESTRUCTIVE_PATTERNS,
  detectDestructiveAction,
  detectDestructiveCommand,
  detectDestructiveSql,
  isAlwaysGated,
  isDestructiveCommand,
  SHELL_TOOLS,
} from './destructive/destructive.js';
export type { DestructiveActionKind } from './destructive/destructive-alternatives.js';
export { DESTRUCTIVE_ALTERNATIVES } from './destructive/destructive-alternatives.js';
export type { DestructiveCategory, DestructiveFinding } from './destructive/destructive-types.js';
export { DESTRUCTIVE_CATEGORIES } from './destructive/destructive-types.js';
export type { PushContext, RefUpdate } from './destructive/push-rules.js';
export {
  isPhaseBranch,
  judgePush,
  pushRefusalOf,
  pushRunRefusal,
  ZERO_OBJECT_ID,
} from './destructive/push-rules.js';
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
export { approvalBinding, boundPayloadHash, sha256Hex } from './gates/approval-binding.js';
export type { CustomGateBehaviour, GateCatalog, ProceedOnTimeoutInput } from './gates/catalog.js';
export { canProceedOnTimeout, createGateCatalog, endingOptions, findOption } from './gates/catalog.js';
export type { OptionMapping, ResolvedOption } from './gates/decide-option.js';
export { rejectOptionOf, resolveDecideOption, steerOptionOf } from './gates/decide-option.js';
export type { KeyBinding, KeyRole } from './gates/decision-keys.js';
export {
  assignDecisionKeys,
  bindingForKey,
  DECISION_KEYS,
  decisionKeys,
  HELP_KEY,
  isTaskEnding,
  keyHelpLines,
  keyNeedsConfirmation,
  TASK_ENDING_OPTIONS,
} from './gates/decision-keys.js';
export type { AlwaysGate, BatchEligibility, BatchExclusionRule, BatchGate } from './gates/decision-safety.js';
export {
  alwaysRefusal,
  BATCH_EXCLUDED_TYPES,
  batchEligibility,
  canOfferAlways,
} from './gates/decision-safety.js';
export type { DecisionTargets } from './gates/decision-targets.js';
export { checkDecisionTargets, currentLimitOf, MAX_NEW_LIMIT } from './gates/decision-targets.js';
export type {
  AutoApproval,
  DestructiveActionContext,
  DestructiveActionInput,
  FalsePositiveOverrideContext,
  FalsePositiveOverrideInput,
  RecoveryEscalationContext,
  RecoveryEscalationInput,
  TriggerContextInput,
  TriggerEvaluation,
  TriggerGateType,
  TriggerInput,
  TriggerRuleId,
} from './gates/escalation.js';
export {
  AUTO_APPROVE_CONDITIONS,
  evaluateTrigger,
  shouldTriggerGate,
  TRIGGER_GATE_TYPES,
  TRIGGER_LIMITS,
} from './gates/escalation.js';
export {
  checkEditedArgs,
  editedActionOf,
  editRefusedError,
  editVerdictRefusal,
} from './gates/gate-edit.js';
export type { EditableInput } from './gates/gate-editable.js';
export { editRefusalReason, isEditable } from './gates/gate-editable.js';
export type { OpenGateInput, OpenGateOptions } from './gates/gate-open.js';
export { MAX_GATE_TIMEOUT_MS, openGate } from './gates/gate-open.js';
export type {
  AssignEvent,
  CancelEvent,
  DecideEvent,
  DecisionPrincipal,
  ExpireEvent,
  ExtendEvent,
  GateEvent,
  GateOutcome,
  GateTransition,
} from './gates/gate-state.js';
export {
  applyGateEvent,
  authorizeDecision,
  DEFAULT_ESCALATION_STEP_MS,
  gateMayProceedOnTimeout,
  gateOutcomeFor,
  isTerminal,
  isWorkspacePath,
  needsSignature,
  TIMEOUT_ACTOR,
} from './gates/gate-state.js';
export type {
  IntentHold,
  IntentHoldFacts,
  IntentHoldReason,
  LatestIntent,
  PlanVerdictInput,
} from './gates/intent-gate.js';
export {
  intentHoldBlocks,
  intentHoldOf,
  isImplementation,
  planVerdict,
  releasesIntentHold,
  requestActOf,
  requiresIntentApproval,
} from './gates/intent-gate.js';
export { isQuestionRequest, questionVerdict } from './gates/question.js';
export type {
  RememberedRuleDraft,
  RememberingPerson,
  RememberRequest,
  RememberScope,
} from './gates/remember-rule.js';
export { rememberOf } from './gates/remember-rule.js';
export type { GatedVerdict, RequestedGateSettings, Verdict, VerdictInput } from './gates/request-verdict.js';
export {
  ALWAYS_GATED_RULE_ID,
  APPROVAL_MODE_RULE_ID,
  autoProceedAllowed,
  decideVerdict,
  fallbackGateType,
  gateSettingsOf,
  isReadOnlyTool,
  LEARNED_RULE_PREFIX,
  POLICY_DEFAULT_RULE_ID,
  READ_ONLY_TOOLS,
} from './gates/request-verdict.js';
export type { OwnerSeparationInput } from './gates/separation-of-duties.js';
export { approvesAction, assertNotAgentOwner, separatesAgentOwner } from './gates/separation-of-duties.js';
export type { AttemptOutcome, RecoveryFacts, RecoveryState } from './gates/trigger-verdict.js';
export {
  isTriggerGateType,
  recordRecoveryAttempt,
  recoveryFactsOf,
  triggerVerdict,
  withoutSelfJudgement,
} from './gates/trigger-verdict.js';
export type { LoginBackoffPolicy } from './login-backoff.js';
export { DEFAULT_LOGIN_BACKOFF, loginBackoffMs } from './login-backoff.js';
export type {
  AuditedBriefing,
  GateAuditView,
  GateAuditViewOptions,
  RedactForAuditOptions,
  RedactionRoot,
} from './policy/audit-redaction.js';
export { DEFAULT_REDACTED_KEYS, gateAuditView, REDACTED, redactForAudit } from './policy/audit-redaction.js';
export { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from './policy/default-policy.js';
export type {
  PolicyBudget,
  PolicyBudgetIssue,
  PolicyBudgetLimit,
  PolicyBudgetViolation,
} from './policy/policy-budget.js';
export { POLICY_BUDGET } from './policy/policy-budget.js';
export {
  POLICY_CONDITION_FUNCTIONS,
  POLICY_CONDITION_VARIABLES,
  requestHasHiddenCharacters,
} from './policy/policy-cel.js';
export type {
  CompiledPolicy,
  PolicyConditionError,
  PolicyDecision,
  PolicyDecisionGate,
} from './policy/policy-engine.js';
export { evaluatePolicy, evaluatePolicyNaive } from './policy/policy-engine.js';
export type { CompilePolicyOptions, PolicyFormat } from './policy/policy-load.js';
export { compilePolicy, createFailClosedPolicy, loadPolicy, parsePolicyText } from './policy/policy-load.js';
export type { ConditionOutcome, ConditionOutcomes } from './policy/policy-replay.js';
export { recordConditionOutcomes, replayConditionOutcomes } from './policy/policy-replay.js';
export type {
  Policy,
  PolicyAction,
  PolicyEvent,
  PolicyGateSettings,
  PolicyInput,
  PolicyIssue,
  PolicyRedact,
  PolicyRequest,
  PolicyRequestInput,
  PolicyRule,
  PolicyRuleAction,
  PolicyRuleMatch,
} from './policy/policy-schema.js';
export {
  defaultEventOf,
  POLICY_EVENT_GATE_TYPES,
  POLICY_EVENTS,
  policyGateSettingsSchema,
  policyRedactSchema,
  policyRequestSchema,
  policyRuleActionSchema,
  policyRuleIdSchema,
  policyRuleMatchSchema,
  policyRuleSchema,
  policySchema,
  policyTrustSchema,
} from './policy/policy-schema.js';
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
