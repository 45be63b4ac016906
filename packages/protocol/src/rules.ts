// The pure rules and wire errors without zod, for clients that count their start-up time (the
// Claude Code hook runs before every tool call); `gatehouse-hitl-protocol/rules`.

export type { ApprovalBindingFields } from './approval-binding.js';
export { APPROVAL_BINDING_PREFIX, approvalBindingText } from './approval-binding.js';
export type { PayloadAction } from './canonical-json.js';
export {
  CANONICAL_JSON_MAX_DEPTH,
  canonicalJson,
  payloadText,
  plainCanonicalJson,
} from './canonical-json.js';
export { canonicalJsonV2 } from './canonical-json-v2.js';
export type {
  CallFacts,
  DecisionView,
  GateView,
  PermissionDecision,
  PreToolUseOutput,
} from './claude-code-answers.js';
export {
  allow,
  allowedByPolicy,
  approvalUsed,
  approved,
  askPerson,
  deferred,
  deniedByPolicy,
  deny,
  ended,
  failClosed,
  pending,
  runSteered,
  steered,
  steerInstructions,
} from './claude-code-answers.js';
export type { ClaudeCodeHookInput, ClaudeCodeToolCall, StringEdit } from './claude-code-input.js';
export {
  CLAUDE_CODE_EDIT_TOOLS,
  CLAUDE_CODE_PLAN_TOOL,
  claudeCodeCallContext,
  claudeCodeCallText,
  claudeCodeRequestFields,
  parseClaudeCodeHookInput,
  readClaudeCodeHookValue,
  stringEditsOf,
} from './claude-code-input.js';
export type { HookSettingsFacts, RefusalFacts } from './claude-code-refusals.js';
export {
  analysisPending,
  analysisRefused,
  refusalAnswer,
  summariseFindings,
} from './claude-code-refusals.js';
export { unquoteGitPath } from './diff-names.js';
export type { ErrorCode } from './error-codes.js';
export { ERROR_CODES, HTTP_STATUS } from './error-codes.js';
export type { GateOutcome } from './gate-outcome.js';
export { gateOutcome } from './gate-outcome.js';
export type { GateStatus, TerminalGateStatus } from './gate-status.js';
export { GATE_STATUSES, isGateStatus } from './gate-status.js';
export { DECISION_TEXT_MAX, MAX_NEW_LIMIT, WHITELIST_DAYS, WHITELIST_JUSTIFICATION_MIN } from './limits.js';
export type { RevealedText, RevealOptions } from './reveal-text.js';
export {
  HIDDEN_CHARACTER_MARKER,
  HIDDEN_CHARACTERS_WARNING,
  hiddenCharacterMarker,
  revealHidden,
  revealText,
} from './reveal-text.js';
export type { Role } from './roles.js';
export { hasRole, ROLES, roleRank } from './roles.js';
export type {
  HttpMethod,
  RouteDefinition,
  RouteInput,
  RouteRequest,
  RouteResult,
} from './route-table/define.js';
export { fillPath, queryString, routeRequest } from './route-table/define.js';
export type { LightRoute } from './route-table/light-routes.js';
export { lightRoutes } from './route-table/light-routes.js';
export type { CanonicalJsonVersion, SignedDecisionFields, SignedWhitelistScope } from './signed-decision.js';
export {
  decisionWhitelistScope,
  KEY_PROOF_PREFIX,
  keyProofText,
  SIGNED_DECISION_PREFIX,
  SIGNED_DECISION_V3_PREFIX,
  SIGNED_DECISION_VERSIONS,
  signedDecisionText,
} from './signed-decision.js';
export type { StreamEventName } from './stream-events.js';
export { isStreamEventName, STREAM_EVENT_NAMES } from './stream-events.js';
export type { DiffFileStatus, DiffRow, ParseDiffOptions, ParsedDiffFile } from './unified-diff.js';
export { fileDiffOf, parseUnifiedDiff, parseUnifiedDiffBytes } from './unified-diff.js';
export type { ApiErrorCode, ApiErrorOptions, ErrorResponse, WireErrorContext } from './wire-error.js';
export {
  decodeWireError,
  errorFromResponse,
  GatehouseApiError,
  isGatehouseApiError,
  retryAfterMsOf,
} from './wire-error.js';
