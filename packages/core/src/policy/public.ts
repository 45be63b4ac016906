// Policies: parsing, evaluation, CEL conditions and audit redaction. Re-exported whole by the package's index.
export type {
  AuditedBriefing,
  GateAuditView,
  GateAuditViewOptions,
  RedactForAuditOptions,
  RedactionRoot,
} from './audit-redaction.js';
export { DEFAULT_REDACTED_KEYS, gateAuditView, REDACTED, redactForAudit } from './audit-redaction.js';
export { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from './default-policy.js';
export type {
  PolicyBudget,
  PolicyBudgetIssue,
  PolicyBudgetLimit,
  PolicyBudgetViolation,
} from './policy-budget.js';
export { POLICY_BUDGET } from './policy-budget.js';
export {
  POLICY_CONDITION_FUNCTIONS,
  POLICY_CONDITION_VARIABLES,
  requestHasHiddenCharacters,
} from './policy-cel.js';
export type {
  CompiledPolicy,
  PolicyConditionError,
  PolicyDecision,
  PolicyDecisionGate,
} from './policy-engine.js';
export { evaluatePolicy, evaluatePolicyNaive } from './policy-engine.js';
export type { CompilePolicyOptions, PolicyFormat } from './policy-load.js';
export { compilePolicy, createFailClosedPolicy, loadPolicy, parsePolicyText } from './policy-load.js';
export type { ConditionOutcome, ConditionOutcomes } from './policy-replay.js';
export { recordConditionOutcomes, replayConditionOutcomes } from './policy-replay.js';
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
} from './policy-schema.js';
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
} from './policy-schema.js';
