// The gate lifecycle: opening, deciding, deadlines, batches and the rules decisions follow. Re-exported whole by the package's index.
export { approvalBinding, boundPayloadHash, sha256Hex } from './approval-binding.js';
export type { CustomGateBehaviour, GateCatalog, ProceedOnTimeoutInput } from './catalog.js';
export { canProceedOnTimeout, createGateCatalog, endingOptions, findOption } from './catalog.js';
export type { OptionMapping, ResolvedOption } from './decide-option.js';
export { rejectOptionOf, resolveDecideOption, steerOptionOf } from './decide-option.js';
export type { KeyBinding, KeyRole } from './decision-keys.js';
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
} from './decision-keys.js';
export type { AlwaysGate, BatchEligibility, BatchExclusionRule, BatchGate } from './decision-safety.js';
export {
  alwaysRefusal,
  BATCH_EXCLUDED_TYPES,
  batchEligibility,
  canOfferAlways,
} from './decision-safety.js';
export type { DecisionTargets } from './decision-targets.js';
export { checkDecisionTargets, currentLimitOf, MAX_NEW_LIMIT } from './decision-targets.js';
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
} from './escalation.js';
export {
  AUTO_APPROVE_CONDITIONS,
  evaluateTrigger,
  shouldTriggerGate,
  TRIGGER_GATE_TYPES,
  TRIGGER_LIMITS,
} from './escalation.js';
export {
  checkEditedArgs,
  editedActionOf,
  editRefusedError,
  editVerdictRefusal,
} from './gate-edit.js';
export type { EditableInput } from './gate-editable.js';
export { editRefusalReason, isEditable } from './gate-editable.js';
export type { OpenGateInput, OpenGateOptions } from './gate-open.js';
export { MAX_GATE_TIMEOUT_MS, openGate } from './gate-open.js';
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
} from './gate-state.js';
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
} from './gate-state.js';
export type {
  IntentHold,
  IntentHoldFacts,
  IntentHoldReason,
  LatestIntent,
  PlanVerdictInput,
} from './intent-gate.js';
export {
  intentHoldBlocks,
  intentHoldOf,
  isImplementation,
  planVerdict,
  releasesIntentHold,
  requestActOf,
  requiresIntentApproval,
} from './intent-gate.js';
export { isQuestionRequest, questionVerdict } from './question.js';
export type {
  RememberedRuleDraft,
  RememberingPerson,
  RememberRequest,
  RememberScope,
} from './remember-rule.js';
export { rememberOf } from './remember-rule.js';
export type { GatedVerdict, RequestedGateSettings, Verdict, VerdictInput } from './request-verdict.js';
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
} from './request-verdict.js';
export type { OwnerSeparationInput } from './separation-of-duties.js';
export { approvesAction, assertNotAgentOwner, separatesAgentOwner } from './separation-of-duties.js';
export type { AttemptOutcome, RecoveryFacts, RecoveryState } from './trigger-verdict.js';
export {
  isTriggerGateType,
  recordRecoveryAttempt,
  recoveryFactsOf,
  triggerVerdict,
  withoutSelfJudgement,
} from './trigger-verdict.js';
