import {
  type ApprovalMode,
  type AutonomyLevel,
  type GateStatus,
  type GateThreshold,
  gateThresholdSchema,
  gateTypeIdSchema,
  type InterventionKind,
  optionIdSchema,
  optionOutcomeSchema,
  type PhaseType,
  type RiskLevel,
  type Role,
  type RunStatus,
  riskLevelSchema,
  roleSchema,
  signatureRuleSchema,
  type TimeoutAction,
  timeoutActionSchema,
} from 'gatehouse-hitl-protocol';
import { z } from 'zod';

export type {
  ApprovalMode,
  AutonomyLevel,
  GateStatus,
  GateThreshold,
  InterventionKind,
  OptionOutcome,
  PhaseType,
  RiskLevel,
  Role,
  RunStatus,
  SignatureRule,
  TerminalGateStatus,
  TimeoutAction,
} from 'gatehouse-hitl-protocol';
export {
  AUTONOMY_LEVELS,
  approvalModeSchema,
  autonomyLevelSchema,
  GATE_STATUSES,
  gateStatusSchema,
  gateThresholdSchema,
  gateTypeIdSchema,
  hasRole,
  interventionKindSchema,
  optionIdSchema,
  optionOutcomeSchema,
  phaseTypeSchema,
  RISK_LEVELS,
  ROLES,
  riskLevelSchema,
  roleRank,
  roleSchema,
  runStatusSchema,
  signatureRuleSchema,
  timeoutActionSchema,
} from 'gatehouse-hitl-protocol';

/** One answer a gate offers. `ends: false` options (view, diff, history) only show more context. */
export const gateOptionSchema = z.object({
  id: optionIdSchema,
  label: z.string().min(1).max(60),
  key: z.string().length(1),
  description: z.string().max(200),
  ends: z.boolean(),
  outcome: optionOutcomeSchema.optional(),
  requires: z
    .array(z.enum(['reason', 'instructions', 'feedback', 'answer', 'delegateTo', 'newLimit']))
    .default([]),
});
export type GateOption = z.infer<typeof gateOptionSchema>;

/** Everything the catalog knows about one gate type. */
export const gateTypeDefinitionSchema = z.object({
  type: gateTypeIdSchema,
  title: z.string().min(1).max(80),
  trigger: z.string().max(300),
  threshold: gateThresholdSchema,
  defaultRisk: riskLevelSchema,
  defaultTimeoutAction: timeoutActionSchema,
  options: z.array(gateOptionSchema).min(1),
  steerable: z.boolean(),
  minRole: roleSchema,
  signature: signatureRuleSchema,
  retentionDays: z.number().int().positive(),
});
export type GateTypeDefinition = z.infer<typeof gateTypeDefinitionSchema>;

/** The tool call or operation a gate is about; approvals bind to its hash. */
export const actionSchema = z.object({
  tool: z.string().min(1).max(200).optional(),
  operation: z.string().min(1).max(2000).optional(),
  args: z.record(z.string(), z.unknown()).default({}),
});
export type Action = z.infer<typeof actionSchema>;

/** One person's approval towards an N-of-M gate. */
export const approvalVoteSchema = z.object({
  by: z.string(),
  at: z.number(),
  reason: z.string().optional(),
});
export type ApprovalVote = z.infer<typeof approvalVoteSchema>;

/** The answer that ended a gate. */
export const decisionSchema = z.object({
  option: optionIdSchema,
  outcome: z.enum(['approved', 'rejected', 'steered', 'resolved', 'expired', 'cancelled']),
  decidedBy: z.string(),
  reason: z.string().optional(),
  feedback: z.string().optional(),
  instructions: z.string().optional(),
  affectedArtifacts: z.array(z.string()).default([]),
  signature: z.string().optional(),
  payloadHash: z.string().optional(),
  /** The arguments a person approved instead of the agent's; `payloadHash` is then their action's hash. */
  editedArgs: z.record(z.string(), z.unknown()).optional(),
  /** The hash of the action the agent proposed, kept when a person edited it. */
  originalPayloadHash: z.string().optional(),
  /** A question gate's answer. */
  answer: z.string().optional(),
  /** The agent a delegate decision hands the task to. */
  delegateTo: z.string().optional(),
  /** The limit an expand-constraint decision sets. */
  newLimit: z.number().optional(),
  /** A Whitelist decision on a finding: the entry's scope as the person chose and signed it (path null: the finding's file). */
  whitelist: z
    .object({ path: z.string().nullable(), agents: z.enum(['this', 'every']), expiresInDays: z.number() })
    .optional(),
  decidedAt: z.number(),
});
export type Decision = z.infer<typeof decisionSchema>;

/** One pending (or ended) human decision. Times are epoch milliseconds. */
export interface Gate {
  id: string;
  type: string;
  status: GateStatus;
  threshold: GateThreshold;
  risk: RiskLevel;
  runId: string | null;
  agentId: string | null;
  /** One line: what the agent wants to do. */
  title: string;
  action: Action | null;
  payloadHash: string | null;
  context: Record<string, unknown>;
  artifacts: string[];
  options: GateOption[];
  confidence: number | null;
  createdAt: number;
  timeoutAt: number | null;
  timeoutAction: TimeoutAction;
  escalationChain: Role[];
  minRole: Role;
  requiredApprovals: number;
  approvals: ApprovalVote[];
  separationOfDuties: boolean;
  requestedBy: string | null;
  assignees: string[];
  signatureRequired: boolean;
  steerable: boolean;
  /** A person may approve with edited arguments. */
  editable: boolean;
  policyRuleId: string | null;
  decision: Decision | null;
}

export const confidenceReportInputSchema = z
  .object({
    score: z.number().min(0).max(100).optional(),
    confidence: z.number().min(0).max(1).optional(),
    reasons: z.array(z.string().max(2000)).max(50).default([]),
    taskId: z.string().max(200).optional(),
  })
  .refine((v) => (v.score === undefined) !== (v.confidence === undefined), {
    message: 'give exactly one of score (0-100) or confidence (0-1)',
    path: ['score'],
  });
export type ConfidenceReportInput = z.input<typeof confidenceReportInputSchema>;

export interface ConfidenceReport {
  id: string;
  runId: string | null;
  agentId: string;
  taskId: string | null;
  /** Always stored on the 0–1 scale. */
  confidence: number;
  reasons: string[];
  createdAt: number;
}

export interface Intervention {
  id: string;
  runId: string;
  kind: InterventionKind;
  instruction: string | null;
  by: string;
  createdAt: number;
}

export interface Agent {
  id: string;
  name: string;
  /** Expert type, e.g. coder, debugger; picks the default autonomy. */
  profile: string | null;
  autonomy: AutonomyLevel | null;
  createdAt: number;
  /** The person who created it and owns it; null for agents made before owners were kept. */
  createdBy?: string | null | undefined;
}

export interface Run {
  id: string;
  agentId: string;
  status: RunStatus;
  autonomy: AutonomyLevel;
  approvalMode: ApprovalMode;
  confidenceThreshold: number;
  phaseNumber: number;
  phaseType: PhaseType;
  instructions: string[];
  createdAt: number;
  updatedAt: number;
}

/** One link of the append-only, hash-chained audit trail. */
export interface AuditEvent {
  seq: number;
  id: string;
  at: number;
  kind: string;
  actor: string;
  subject: string | null;
  data: Record<string, unknown>;
  prevHash: string;
  hash: string;
}
