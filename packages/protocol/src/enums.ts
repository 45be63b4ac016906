import { z } from 'zod';
import { GATE_STATUSES } from './gate-status.js';
import { ROLES } from './roles.js';

export type { GateStatus, TerminalGateStatus } from './gate-status.js';
export { GATE_STATUSES } from './gate-status.js';
export type { Role } from './roles.js';
export { ROLES } from './roles.js';

/** Risk of an action, lowest first. */
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const riskLevelSchema = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof riskLevelSchema>;

/** How binding a gate is: mandatory gates can never time out into "proceed". */
export const gateThresholdSchema = z.enum(['mandatory', 'advisory', 'conditional']);
export type GateThreshold = z.infer<typeof gateThresholdSchema>;

export const roleSchema = z.enum(ROLES);

/** What happens to a gate nobody answers before its deadline. */
export const timeoutActionSchema = z.enum(['deny', 'escalate', 'proceed']);
export type TimeoutAction = z.infer<typeof timeoutActionSchema>;

/** How much an agent may do alone, most autonomous first. */
export const AUTONOMY_LEVELS = ['full', 'review', 'partial', 'guided', 'dependent'] as const;
export const autonomyLevelSchema = z.enum(AUTONOMY_LEVELS);
export type AutonomyLevel = z.infer<typeof autonomyLevelSchema>;

export const approvalModeSchema = z.enum(['auto', 'manual', 'confidence_threshold']);
export type ApprovalMode = z.infer<typeof approvalModeSchema>;

export const phaseTypeSchema = z.enum(['strategic', 'tactical']);
export type PhaseType = z.infer<typeof phaseTypeSchema>;

export const runStatusSchema = z.enum(['running', 'paused', 'waiting', 'stopped', 'completed', 'failed']);
export type RunStatus = z.infer<typeof runStatusSchema>;

export const gateStatusSchema = z.enum(GATE_STATUSES);

/** What choosing an option does to the gate. */
export const optionOutcomeSchema = z.enum(['approved', 'rejected', 'steered', 'resolved']);
export type OptionOutcome = z.infer<typeof optionOutcomeSchema>;

/** Option ids are lowercase snake case, e.g. `approve`, `reject_rollback`, `expand_constraint`. */
export const optionIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'option ids are lowercase snake_case, at most 40 characters');

/** When a gate type asks for a signed decision. */
export const signatureRuleSchema = z.enum(['never', 'always', 'critical']);
export type SignatureRule = z.infer<typeof signatureRuleSchema>;

/** Gate types are lowercase snake case, e.g. `destructive_action`. */
export const gateTypeIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{1,63}$/, 'gate types are lowercase snake_case');

export const interventionKindSchema = z.enum(['pause', 'resume', 'stop', 'steer']);
export type InterventionKind = z.infer<typeof interventionKindSchema>;
