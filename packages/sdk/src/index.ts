export type {
  JournalEntryDocument,
  JournalEntryInput,
  ReviewComment,
  ReviewDocument,
  ReviewFeedback,
  WorkspaceResponse,
} from 'gatehouse-hitl-protocol';
export type {
  AnalysisAnswer,
  AnalysisDecision,
  AnalysisFinding,
  AnalyzeAndWaitOptions,
  AnalyzeCoverage,
  AnalyzeFile,
  AnalyzeOptions,
} from './analysis.js';
export type { AskOptions } from './ask.js';
export { questionRequest } from './ask.js';
export type { Backoff } from './backoff.js';
export { backoffDelay } from './backoff.js';
export { Gatehouse } from './client.js';
export type { ApiErrorCode } from './errors.js';
export {
  ApprovalDenied,
  ApprovalNotGranted,
  ApprovalSteered,
  ApprovalTimedOut,
  GatehouseApiError,
  isGatehouseApiError,
} from './errors.js';
export type { DecisionEvent, InterventionEvent, RunEvent, RunEventOptions } from './events.js';
export { canonicalJson, payloadHash, payloadText } from './payload.js';
export type { RepliedComment, ReviewCommentInput } from './review.js';
export type { SseMessage } from './sse.js';
export { readSse, SseParser } from './sse.js';
export type {
  ActionSpec,
  CheckpointOptions,
  CheckpointResult,
  CompleteRunOptions,
  CompleteRunResult,
  ConfidenceOptions,
  ConfidenceResult,
  CreateRunOptions,
  GatehouseOptions,
  GateResult,
  InterventionNotice,
  Outcome,
  RequestOptions,
  RetryOptions,
  Run,
  TraceContext,
} from './types.js';
export type {
  VerifyWebhookOptions,
  WebhookEvent,
  WebhookVerification,
  WebhookVerificationFailure,
} from './webhooks.js';
export { verifyWebhookSignature } from './webhooks.js';
export type { ApprovalOutcome, ApprovalRequestFields, ApprovalSpec } from './with-approval.js';
export type { GitAuthor, StartPhaseBranchOptions, WorkspaceOptions } from './workspace.js';
export { Workspace } from './workspace.js';
export type { PhaseBranch, PhaseBranchSpec } from './workspace-branch.js';
export { parsePhaseBranch, phaseBranchName } from './workspace-branch.js';
export type { WorkspaceGitFailure } from './workspace-git.js';
export { WorkspaceGitError } from './workspace-git.js';
export type { JournalListOptions } from './workspace-journal.js';
export { Journal } from './workspace-journal.js';
